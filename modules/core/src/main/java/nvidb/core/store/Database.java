package nvidb.core.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;

/**
 * The queue database: one SQLite file in WAL mode with {@code synchronous=FULL}, so a submit
 * that returned an id survives a power cut. Every write runs in {@code BEGIN IMMEDIATE}: writers
 * serialise up front and WAL readers never block. Opening a fresh file from many processes at
 * once is normal (a burst of agents), so the WAL switch and the migrations retry on "busy".
 */
public final class Database implements AutoCloseable {
    /** System property: open connections through DriverManager (for tests that record statements). */
    static final String DRIVER_MANAGER = "nvidb.store.driverManager";

    static final int BUSY_TIMEOUT_MS = 30_000;
    private static final int OPEN_ATTEMPTS = 200;

    /**
     * One writer at a time per file within this process. Without it, two threads of one server
     * (the web's virtual threads) each wait for SQLite's lock inside the native busy handler,
     * which pins their carrier: with every carrier pinned, the thread that holds the lock cannot
     * run to commit, and each waits out its busy timeout. A Java lock parks a virtual thread
     * instead; SQLite's lock still orders this process against the others.
     */
    private static final ConcurrentHashMap<Path, ReentrantLock> WRITERS =
            new ConcurrentHashMap<>();

    private final Path path;
    private final ReentrantLock writer;
    private final Connection connection;
    /** What to do about a damaged database: QueueService names the newest backup. */
    private final java.util.function.Supplier<String> recovery;
    private int depth;
    private PreparedStatement dataVersion;

    private Database(Path path, Connection connection, java.util.function.Supplier<String> recovery) {
        this.path = path;
        this.writer = WRITERS.computeIfAbsent(path.toAbsolutePath().normalize(),
                p -> new ReentrantLock());
        this.connection = connection;
        this.recovery = recovery;
    }

    public static Database open(Path path) {
        return open(path, () -> StoreFailures.RESTORE);
    }

    /** @param recovery what a user should do when the file turns out to be damaged */
    public static Database open(Path path, java.util.function.Supplier<String> recovery) {
        Connection c = null;
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                FilePermissions.createPrivateDirectories(parent);
            }
            createPrivateFile(path);
            // The driver itself rather than DriverManager, whose first use searches every module for
            // java.sql.Driver services: a few ms of every command, for a driver known in advance.
            // A test that records every statement (QueryPlansTest) registers a driver of its own and
            // sets nvidb.store.driverManager to be asked.
            String url = "jdbc:sqlite:" + path;
            c = Boolean.getBoolean(DRIVER_MANAGER) ? java.sql.DriverManager.getConnection(url)
                    : org.sqlite.JDBC.createConnection(url, new java.util.Properties());
            Database db = new Database(path, c, recovery);
            db.configure();
            Migrations.apply(db);
            return db;
        } catch (SQLException e) {
            closeQuietly(c);
            throw StoreFailures.opening(path, recovery.get(), e);
        } catch (IOException e) {
            closeQuietly(c);
            throw new NvidbException(nvidb.core.api.ErrorCode.FAILED,
                    "could not open the queue database " + path + ": " + e.getMessage(), e);
        } catch (NvidbException e) {
            closeQuietly(c);
            throw e.getCause() instanceof SQLException s ? StoreFailures.opening(path, recovery.get(), s) : e;
        } catch (RuntimeException e) {
            // A refused (newer) database included: let go of the file before reporting.
            closeQuietly(c);
            throw e;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // already failing: the first error is the one to report
        }
    }

    private static void createPrivateFile(Path path) throws IOException {
        if (Files.exists(path)) {
            return;
        }
        try {
            FilePermissions.createQueueFile(path);
        } catch (FileAlreadyExistsException raced) {
            // another process created it first: fine
        }
    }

    private void configure() throws SQLException, IOException {
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA busy_timeout=" + BUSY_TIMEOUT_MS);
        }
        // Refuse a newer database before anything writes to it: the WAL switch below rewrites
        // the file header of a database left in rollback-journal mode (a backup copy, say).
        Migrations.refuseNewer(this);
        // SQLite refuses the WAL switch without consulting the busy handler, so retry by hand.
        retryBusy(() -> {
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode=WAL")) {
                rs.next();
            }
            return null;
        });
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA synchronous=FULL");
            s.execute("PRAGMA foreign_keys=ON");
        }
    }

    public Path path() {
        return path;
    }

    /** The connection, for repositories of this package. */
    Connection connection() {
        return connection;
    }

    /**
     * SQLite's {@code PRAGMA data_version} on this connection: it changes whenever another
     * connection (any process) commits, never for this connection's own commits. A cheap way to
     * notice others' writes: it reads the WAL index in shared memory, no page of the file.
     */
    public long dataVersion() {
        try {
            if (dataVersion == null) {
                dataVersion = connection.prepareStatement("PRAGMA data_version"); // asked often: prepared once
            }
            try (ResultSet rs = dataVersion.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw storeFailure(e);
        }
    }

    /** Work that reads and writes the database through the repositories. */
    @FunctionalInterface
    public interface Work<T> {
        T run();
    }

    /**
     * Runs {@code work} in one {@code BEGIN IMMEDIATE} transaction; a nested call joins the outer
     * one. Any exception rolls everything back, so no command leaves half-written state.
     */
    public <T> T write(Work<T> work) {
        if (depth > 0) {
            return runNested(work);
        }
        writer.lock();
        try {
            return writeLocked(work);
        } finally {
            writer.unlock();
        }
    }

    private <T> T writeLocked(Work<T> work) {
        try {
            retryBusy(() -> {
                try (Statement s = connection.createStatement()) {
                    s.execute("BEGIN IMMEDIATE");
                }
                return null;
            });
        } catch (SQLException e) {
            throw storeFailure(e);
        }
        depth = 1;
        boolean committed = false;
        try {
            T value = work.run();
            try (Statement s = connection.createStatement()) {
                s.execute("COMMIT");
            }
            committed = true;
            return value;
        } catch (SQLException e) {
            throw storeFailure(e);
        } catch (NvidbException e) {
            throw named(e);
        } finally {
            depth = 0;
            if (!committed) {
                rollbackQuietly();
            }
        }
    }

    /** Runs read-only work outside a transaction (WAL gives each statement a consistent view). */
    public <T> T read(Work<T> work) {
        try {
            return work.run();
        } catch (NvidbException e) {
            throw named(e);
        }
    }

    /**
     * Whether this process may not write the file (permissions): reads work, a pass cannot. Root
     * may write anything, and a file SQLite cannot write for another reason shows at the write.
     */
    public boolean readOnly() {
        return !Files.isWritable(path);
    }

    /** A repository's failure ({@link Rows#sql}, which knows no path) told again with this database's path and remedy. */
    private NvidbException named(NvidbException e) {
        return e.getCause() instanceof SQLException s ? storeFailure(s) : e;
    }

    private <T> T runNested(Work<T> work) {
        return work.run();
    }

    private void rollbackQuietly() {
        try (Statement s = connection.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // nothing was open, or the connection is gone: either way nothing was committed
        }
    }

    private NvidbException storeFailure(SQLException e) {
        return StoreFailures.of(path, recovery.get(), e);
    }

    static boolean isBusy(SQLException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return m.contains("busy") || m.contains("locked");
    }

    static <T> T retryBusy(Rows.SqlWork<T> work) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.run();
            } catch (SQLException e) {
                if (!isBusy(e) || attempt >= OPEN_ATTEMPTS) {
                    throw e;
                }
                try {
                    Thread.sleep(20 + ThreadLocalRandom.current().nextInt(60));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Reads a resource of this package as text (migrations). */
    static String resource(String name) throws IOException {
        try (InputStream in = Database.class.getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String now() {
        return Times.iso(Times.now());
    }

    @Override
    public void close() {
        try {
            if (dataVersion != null) {
                dataVersion.close();
            }
            connection.close();
        } catch (SQLException ignored) {
            // closing on the way out: nothing to save
        }
    }
}
