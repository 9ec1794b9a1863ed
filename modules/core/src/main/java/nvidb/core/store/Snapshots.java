package nvidb.core.store;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * SQLite's side of backups. Copies go through SQLite's online backup API in one step, so a copy
 * is one read snapshot of its source: everything committed when it began, the WAL's content
 * included, while other processes go on writing (a WAL reader never blocks a writer). Files
 * here are copies nobody else has open, except the live database in {@link #restoreInto}.
 */
public final class Snapshots {
    /** Copy every page in one step: a step that stops half-way restarts when the source changes. */
    private static final int ALL_PAGES = -1;
    /** The copy retries a busy or locked database every 50 ms, for up to the store's busy timeout. */
    private static final int BUSY_SLEEP_MS = 50;
    private static final int BUSY_TRIES = Database.BUSY_TIMEOUT_MS / BUSY_SLEEP_MS;
    private static final int MAX_PROBLEMS = 5;
    /** The schema name a restore attaches its prepared copy under. */
    private static final String SNAPSHOT = "nvidb_snapshot";
    /**
     * Tables a restore leaves as they are: a lease belongs to a process running now (the restore's
     * own among them), not to the moment of a snapshot.
     */
    private static final Set<String> LIVE_ONLY = Set.of("locks");

    /** What a snapshot is, read without changing it. */
    public record Inspection(int schemaVersion, String quickCheck) {
        public boolean ok() {
            return "ok".equals(quickCheck);
        }
    }

    private Snapshots() {
    }

    /**
     * Copies the live database into {@code target}, an empty file no one else uses. The copy reads
     * through a connection of its own: SQLite refuses to copy from a connection in a write
     * transaction, and a restore takes its backup while holding the write lock (a WAL reader
     * needs no lock a writer holds, and sees exactly what is committed).
     */
    public static void copy(Database live, Path target) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + live.path())) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=" + Database.BUSY_TIMEOUT_MS);
            }
            check(c.unwrap(SQLiteConnection.class).getDatabase()
                    .backup("main", target.toString(), null, BUSY_SLEEP_MS, BUSY_TRIES, ALL_PAGES), live.path(), target);
        } catch (SQLException e) {
            throw NvidbException.failed("could not read " + live.path() + ": " + e.getMessage());
        }
    }

    /** Copies a snapshot file (read only) into {@code target}, an empty file no one else uses. */
    public static void copyFile(Path snapshot, Path target) {
        try (Connection c = readOnly(snapshot)) {
            check(c.unwrap(SQLiteConnection.class).getDatabase()
                    .backup("main", target.toString(), null, BUSY_SLEEP_MS, BUSY_TRIES, ALL_PAGES), snapshot, target);
        } catch (SQLException e) {
            throw unreadable(snapshot, e);
        }
    }

    /**
     * Makes a fresh copy stand alone, then checks it: rollback-journal mode (one file, readable
     * without {@code -wal} or {@code -shm}), no lease held (its holders do not run on the copy),
     * {@code last_backup_at} stamped when {@code stampedAt} is given.
     *
     * @return {@code PRAGMA quick_check}'s answer: {@code ok}, or the first problems it found
     */
    public static String seal(Path copy, Instant stampedAt) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout=" + Database.BUSY_TIMEOUT_MS);
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode=DELETE")) {
                rs.next();
            }
            s.execute("UPDATE locks SET owner = NULL, expires_at = NULL");
            if (stampedAt != null) {
                MetaRepository.put(c, MetaRepository.LAST_BACKUP_AT, Times.iso(stampedAt));
            }
            return quickCheck(s);
        } catch (SQLException e) {
            throw NvidbException.failed("could not check the copy " + copy + ": " + e.getMessage());
        }
    }

    /**
     * Reads what a snapshot is: an nvidb queue database of which schema version, whether it
     * passes {@code quick_check}. A file that is not one is refused with what it is instead.
     */
    public static Inspection inspect(Path snapshot) {
        try (Connection c = readOnly(snapshot); Statement s = c.createStatement()) {
            String check = quickCheck(s);
            if (!"ok".equals(check)) {
                return new Inspection(0, check);
            }
            int version;
            try (ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
                version = rs.next() ? rs.getInt(1) : 0;
            } catch (SQLException e) {
                version = 0;
            }
            if (version == 0) {
                throw NvidbException.failed(snapshot + " is an SQLite database but not an nvidb queue (it has no"
                        + " schema version); pass a file that nvidb queue backup wrote");
            }
            return new Inspection(version, check);
        } catch (SQLException e) {
            throw unreadable(snapshot, e);
        }
    }

    /** The newest schema version this nvidb knows. */
    public static int latestSchema() {
        try {
            return Migrations.latest();
        } catch (IOException e) {
            throw NvidbException.failed("could not read the schema migrations: " + e.getMessage());
        }
    }

    /** Brings a copy of an older schema up to this nvidb's, as opening a queue would. */
    public static void migrate(Path copy) {
        Database.open(copy).close();
    }

    /**
     * Replaces the rows of the live database with the prepared copy's, leases aside, in one
     * {@code BEGIN IMMEDIATE} transaction: the write lock is the exclusive lock of the swap. {@code first}
     * runs inside it before anything changes (the backup of what is replaced), so no other
     * process's write can fall between that backup and the swap. Readers see the old rows or the
     * new, never a mix; a process that has the file open sees the new rows from its next
     * transaction (no file is renamed under it, no {@code -wal} is orphaned); a crash part-way
     * leaves the old rows. Id sequences never go back: a job, event or alert id handed out before
     * the restore is not handed out again (a job directory on a node is named by its id).
     *
     * @param prepared a copy of this nvidb's schema version, which no one else has open
     */
    public static <T> T restoreInto(Path prepared, Database live, Database.Work<T> first) {
        Connection c = live.connection();
        Rows.sql(() -> {
            try (PreparedStatement ps = c.prepareStatement("ATTACH DATABASE ? AS " + SNAPSHOT)) {
                ps.setString(1, prepared.toString());
                ps.execute();
            }
            return null;
        });
        try {
            return live.write(() -> {
                T value = first.run();
                Rows.sql(() -> {
                    swapRows(c);
                    return null;
                });
                return value;
            });
        } finally {
            try (Statement s = c.createStatement()) {
                s.execute("DETACH DATABASE " + SNAPSHOT);
            } catch (SQLException e) {
                // the connection keeps the copy attached until it closes; nothing reads it
            }
        }
    }

    private static void swapRows(Connection c) throws SQLException {
        Map<String, Long> sequences = sequences(c, "main");
        sequences(c, SNAPSHOT).forEach((table, seq) -> sequences.merge(table, seq, Math::max));
        try (Statement s = c.createStatement()) {
            for (String table : tables(c)) {
                if (LIVE_ONLY.contains(table)) {
                    continue;
                }
                String columns = String.join(", ", columns(c, table));
                s.execute("DELETE FROM main." + quote(table));
                s.execute("INSERT INTO main." + quote(table) + " (" + columns + ") SELECT " + columns + " FROM "
                        + SNAPSHOT + "." + quote(table));
            }
            s.execute("DELETE FROM main.sqlite_sequence");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)")) {
            for (Map.Entry<String, Long> e : sequences.entrySet()) {
                ps.setString(1, e.getKey());
                ps.setLong(2, e.getValue());
                ps.executeUpdate();
            }
        }
    }

    /** The live database's own tables (SQLite's internal ones aside). */
    private static List<String> tables(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static List<String> columns(Connection c, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "PRAGMA main.table_info(" + quote(table) + ")")) {
            while (rs.next()) {
                out.add(quote(rs.getString("name")));
            }
        }
        return out;
    }

    private static Map<String, Long> sequences(Connection c, String schema) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT name, seq FROM " + schema + ".sqlite_sequence")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static Connection readOnly(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(Database.BUSY_TIMEOUT_MS);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    private static String quickCheck(Statement s) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("PRAGMA quick_check(" + MAX_PROBLEMS + ")")) {
            while (rs.next()) {
                problems.add(rs.getString(1));
            }
        }
        return problems.isEmpty() ? "no answer" : String.join("; ", problems);
    }

    private static void check(int rc, Path from, Path to) {
        if (rc != 0) {
            throw NvidbException.failed("SQLite could not copy " + from + " to " + to + " (SQLite result code " + rc
                    + (rc == 5 || rc == 6 ? ": the database stayed busy" : "")
                    + ((rc & 0xff) == 13 ? ": no space left, " + StoreFailures.free(to) : "") + ")");
        }
    }

    private static NvidbException unreadable(Path file, SQLException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("NOTADB") || m.contains("not a database") || m.contains("CORRUPT") || m.contains("malformed")) {
            return NvidbException.failed(file + " is not a readable SQLite database (" + m + ")");
        }
        return NvidbException.failed("could not read " + file + ": " + m);
    }
}
