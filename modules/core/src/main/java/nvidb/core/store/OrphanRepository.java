package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;

/** The {@code orphans} table: processes to kill when their node answers. */
public final class OrphanRepository {
    private static final String INSERT =
            "INSERT INTO orphans (job_id, node, run_dir, pid, pgid, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String COUNT = "SELECT COUNT(*) FROM orphans";
    private static final String BY_NODE = "SELECT * FROM orphans WHERE node = ? ORDER BY id";
    private static final String DELETE = "DELETE FROM orphans WHERE id = ?";
    private static final String NODES = "SELECT DISTINCT node FROM orphans";

    /** A process to kill when its node answers. */
    public record Orphan(long id, long jobId, String node, String runDir, Integer pid, Integer pgid, String reason) {
    }

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

    public java.util.List<Orphan> forNode(String node) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(BY_NODE)) {
                ps.setString(1, node);
                try (ResultSet rs = ps.executeQuery()) {
                    java.util.List<Orphan> out = new java.util.ArrayList<>();
                    while (rs.next()) {
                        out.add(new Orphan(rs.getLong("id"), rs.getLong("job_id"), rs.getString("node"),
                                rs.getString("run_dir"), Rows.intOrNull(rs, "pid"), Rows.intOrNull(rs, "pgid"),
                                rs.getString("reason")));
                    }
                    return out;
                }
            }
        });
    }

    public java.util.Set<String> nodes() {
        return Rows.sql(() -> {
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(NODES)) {
                java.util.Set<String> out = new java.util.HashSet<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        });
    }

    public void delete(long id) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(DELETE)) {
                ps.setLong(1, id);
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
