package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

/** The {@code orphans} table: processes to kill when their node answers. */
public final class OrphanRepository {
    private static final String INSERT =
            "INSERT INTO orphans (job_id, node, run_dir, pid, pgid, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String COUNT = "SELECT COUNT(*) FROM orphans";

    private final Database db;

    public OrphanRepository(Database db) {
        this.db = db;
    }

    public void add(long jobId, String node, String runDir, Integer pid, Integer pgid, String reason, Instant now) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT)) {
                Rows.bind(ps, jobId, node, runDir, pid, pgid, reason, now);
                ps.executeUpdate();
            }
            return null;
        });
    }

    public long count() {
        return Rows.sql(() -> {
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(COUNT)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }
}
