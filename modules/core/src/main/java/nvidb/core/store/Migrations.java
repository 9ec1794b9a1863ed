package nvidb.core.store;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import nvidb.core.api.NvidbException;

/**
 * Numbered schema migrations: {@code migrations/1.sql}, {@code 2.sql}, … each applied in its own
 * transaction and recorded in {@code schema_version}. A database stamped with a version this
 * build does not know was written by a newer nvidb and is refused, never altered.
 */
final class Migrations {
    private Migrations() {
    }

    /** The newest schema this build knows: the highest numbered resource present. */
    static int latest() throws IOException {
        int n = 0;
        while (Database.resource("migrations/" + (n + 1) + ".sql") != null) {
            n++;
        }
        return n;
    }

    static void apply(Database db) throws SQLException, IOException {
        int latest = latest();
        int current = currentVersion(db);
        refuseNewer(db, current, latest);
        while (current < latest) {
            int next = current + 1;
            String sql = Database.resource("migrations/" + next + ".sql");
            // Re-read inside the transaction: a concurrent opener may have applied it already.
            current = db.write(() -> Rows.sql(() -> {
                try (Statement s = db.connection().createStatement()) {
                    s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
                }
                int now = currentVersion(db);
                if (now >= next) {
                    return now;
                }
                try (Statement s = db.connection().createStatement()) {
                    for (String statement : splitStatements(sql)) {
                        s.execute(statement);
                    }
                }
                try (PreparedStatement ps = db.connection().prepareStatement(
                        "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)")) {
                    ps.setInt(1, next);
                    ps.setString(2, Database.now());
                    ps.executeUpdate();
                }
                return next;
            }));
            refuseNewer(db, current, latest);
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

    /** Splits a migration into statements at semicolons ending a line; comments are dropped. */
    static java.util.List<String> splitStatements(String sql) {
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : sql.split("\n")) {
            String code = line.contains("--") ? line.substring(0, line.indexOf("--")) : line;
            current.append(code).append('\n');
            if (code.strip().endsWith(";")) {
                String statement = current.toString().strip();
                out.add(statement.substring(0, statement.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }
}
