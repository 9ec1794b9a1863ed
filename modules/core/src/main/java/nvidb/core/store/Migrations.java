package nvidb.core.store;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.core.api.NvidbException;

/**
 * Named schema migrations: {@code migrations/V001__initial_schema.sql}, {@code V002__…}, … each
 * applied in its own transaction and recorded in {@code schema_version} by its number. A database
 * stamped with a version this build does not know was written by a newer nvidb and is refused,
 * never altered.
 *
 * <p>They are found through {@code migrations/index.txt}, not by listing the folder: inside the
 * jlink image resources live in the runtime's module image, where a folder cannot be listed.
 * MigrationsIndexTest holds the index to the folder.
 */
final class Migrations {
    static final String INDEX = "migrations/index.txt";
    private static final Pattern NAME = Pattern.compile("V(\\d{3,})__[a-z0-9_]+\\.sql");
    private static final String CREATE_SCHEMA_VERSION =
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)";
    private static final String STAMP = "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)";

    private static List<String> names;

    private Migrations() {
    }

    /** The migrations' file names, oldest first: entry k - 1 is version k. */
    static synchronized List<String> names() throws IOException {
        if (names == null) {
            String index = Database.resource(INDEX);
            if (index == null) {
                throw new IOException("the migration index " + INDEX + " is missing from the build");
            }
            List<String> found = new ArrayList<>();
            for (String line : index.split("\n")) {
                String name = line.strip();
                if (name.isEmpty() || name.startsWith("#")) {
                    continue;
                }
                Matcher m = NAME.matcher(name);
                if (!m.matches() || Integer.parseInt(m.group(1)) != found.size() + 1) {
                    throw new IOException("migration index entry " + name + " should be V"
                            + String.format("%03d", found.size() + 1) + "__<what_it_does>.sql");
                }
                found.add(name);
            }
            names = List.copyOf(found);
        }
        return names;
    }

    /** The newest schema this build knows: the last entry of the index. */
    static int latest() throws IOException {
        return names().size();
    }

    /** The SQL of migration {@code version} (1 for the first). */
    static String sql(int version) throws IOException {
        String name = names().get(version - 1);
        String sql = Database.resource("migrations/" + name);
        if (sql == null) {
            throw new IOException("migration " + name + " is in " + INDEX + " but missing from the build");
        }
        return sql;
    }

    static void apply(Database db) throws SQLException, IOException {
        int latest = latest();
        int current = currentVersion(db);
        refuseNewer(db, current, latest);
        while (current < latest) {
            current = applyOne(db, current + 1, sql(current + 1));
            refuseNewer(db, current, latest);
        }
    }

    /**
     * Applies migration {@code version}, whose text is {@code sql}, and records it in
     * {@code schema_version}, both in one transaction: a statement that fails leaves neither.
     * Returns the version the file is at afterwards, which is higher when a concurrent opener
     * got there first (the version is read again inside the transaction).
     */
    static int applyOne(Database db, int version, String sql) {
        return db.write(() -> Rows.sql(() -> {
            try (Statement s = db.connection().createStatement()) {
                s.execute(CREATE_SCHEMA_VERSION);
            }
            int now = currentVersion(db);
            if (now >= version) {
                return now;
            }
            execute(db.connection(), sql);
            try (PreparedStatement ps = db.connection().prepareStatement(STAMP)) {
                ps.setInt(1, version);
                ps.setString(2, Database.now());
                ps.executeUpdate();
            }
            return version;
        }));
    }

    /**
     * Runs every statement of a migration's text, in the caller's transaction, with SQLite's own
     * parser: string literals, quoted identifiers, comments and trigger bodies may hold semicolons.
     * sqlite-jdbc's {@code executeUpdate(String)} hands the whole text to {@code sqlite3_exec},
     * which runs one statement after another and stops at the first that fails; its
     * {@code execute(String)} would prepare the first statement only and ignore the rest.
     */
    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    /** Refuses, without writing anything, a database stamped by a newer nvidb. */
    static void refuseNewer(Database db) throws SQLException, IOException {
        refuseNewer(db, currentVersion(db), latest());
    }

    private static void refuseNewer(Database db, int current, int latest) {
        if (current > latest) {
            throw NvidbException.failed("the queue database " + db.path() + " has schema version " + current
                    + ", written by a newer nvidb; this nvidb knows versions up to " + latest
                    + ". Upgrade nvidb to use it; the file was left unchanged.");
        }
    }

    static int currentVersion(Database db) throws SQLException {
        return Database.retryBusy(() -> {
            try (Statement s = db.connection().createStatement();
                 ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
                return rs.next() ? rs.getInt(1) : 0;
            } catch (SQLException e) {
                if (String.valueOf(e.getMessage()).contains("no such table")) {
                    return 0;
                }
                throw e;
            }
        });
    }

}
