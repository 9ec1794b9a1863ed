package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;

/** The {@code nodes} table: configured servers plus what their probes last said. */
public final class NodeRepository {
    private static final String ALL = "SELECT * FROM nodes ORDER BY sort_order IS NULL, sort_order, name";
    private static final String BY_NAME = "SELECT * FROM nodes WHERE name = ?";
    private static final String UPSERT_CONFIG = """
            INSERT INTO nodes (name, hostname, port, username, sort_order) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET hostname = excluded.hostname, port = excluded.port,
                                            username = excluded.username, sort_order = excluded.sort_order
            """;
    private static final String SET_ENABLED = "UPDATE nodes SET enabled = ? WHERE name = ?";
    private static final String SET_IGNORED = "UPDATE nodes SET ignored = ? WHERE name = ?";

    private static final String MARK_UP = """
            UPDATE nodes SET state = 'up', probed_at = ?, last_seen = ?, last_error = ?, gpu_count = ? WHERE name = ?
            """;
    private static final String MARK_DOWN =
            "UPDATE nodes SET state = 'down', probed_at = ?, last_error = ?, gpu_count = 0 WHERE name = ?";

    private final Database db;

    public NodeRepository(Database db) {
        this.db = db;
    }

    public List<NodeRecord> all() {
        return Rows.sql(() -> {
            return query(ALL);
        });
    }

    public Optional<NodeRecord> find(String name) {
        return Rows.sql(() -> {
            List<NodeRecord> found = query(BY_NAME, name);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
        });
    }

    /** Records a configured server; runtime fields (state, drain, last seen) are left alone. */
    public void upsertConfigured(String name, String hostname, Integer port, String username, int sortOrder) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(UPSERT_CONFIG)) {
                Rows.bind(ps, name, hostname, port, username, sortOrder);
                ps.executeUpdate();
            }
            return null;
        });
    }

    public void setEnabled(String name, boolean enabled) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(SET_ENABLED)) {
                Rows.bind(ps, enabled, name);
                ps.executeUpdate();
            }
            return null;
        });
    }

    public void setIgnored(String name, boolean ignored) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(SET_IGNORED)) {
                Rows.bind(ps, ignored, name);
                ps.executeUpdate();
            }
            return null;
        });
    }

    public void markUp(String name, java.time.Instant now, String lastError, int gpuCount) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(MARK_UP)) {
                Rows.bind(ps, now, now, lastError, gpuCount, name);
                ps.executeUpdate();
            }
            return null;
        });
    }

    public void markDown(String name, java.time.Instant now, String lastError) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(MARK_DOWN)) {
                Rows.bind(ps, now, lastError, name);
                ps.executeUpdate();
            }
            return null;
        });
    }

    private List<NodeRecord> query(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<NodeRecord> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new NodeRecord(rs.getString("name"), rs.getString("hostname"), Rows.intOrNull(rs, "port"),
                            rs.getString("username"), NodeState.fromLabel(rs.getString("state")), rs.getInt("enabled") != 0,
                            rs.getInt("ignored") != 0, Rows.instant(rs, "last_seen"), rs.getString("last_error"),
                            rs.getInt("gpu_count"), Rows.instant(rs, "probed_at"), Rows.intOrNull(rs, "sort_order")));
                }
                return out;
            }
        }
    }
}
