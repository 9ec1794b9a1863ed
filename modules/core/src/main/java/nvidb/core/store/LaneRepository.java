package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.LaneRecord;

/** The {@code lanes} table. */
public final class LaneRepository {
    private static final String ALL = "SELECT * FROM lanes ORDER BY node, name";
    private static final String BY_NAME = "SELECT * FROM lanes WHERE name = ?";
    private static final String CREATE = """
            INSERT INTO lanes (name, node, created_at, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(name) DO NOTHING
            """;
    private static final String INSERT_GPU = "INSERT INTO lane_gpus (lane, position, gpu_index) VALUES (?, ?, ?)";
    /** The GPUs of the lanes {@code sql} selects (its text follows {@code picked AS}), in lane order. */
    private static final String GPUS = "SELECT lane, gpu_index FROM lane_gpus WHERE lane IN (SELECT name FROM picked)"
            + " ORDER BY lane, position";
    private static final String SET_PAUSED = "UPDATE lanes SET paused = ?, updated_at = ? WHERE name = ?";
    private static final String SET_RUNNER = "UPDATE lanes SET runner = ?, updated_at = ? WHERE name = ?";
    private static final String SET_CONCURRENCY = "UPDATE lanes SET concurrency = ?, updated_at = ? WHERE name = ?";
    private static final String SET_RUNNER_STATE = "UPDATE lanes SET runner_state = ?, runner_seen_at = ? WHERE name = ?";
    private static final String MAX_SEQ = "SELECT MAX(lane_seq) FROM jobs WHERE lane = ?";

    private final Database db;

    public LaneRepository(Database db) {
        this.db = db;
    }

    public List<LaneRecord> all() {
        return Rows.sql(() -> {
            return query(ALL);
        });
    }

    public Optional<LaneRecord> find(String name) {
        return Rows.sql(() -> {
            List<LaneRecord> found = query(BY_NAME, name);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
        });
    }

    public void create(String name, String node, List<Integer> gpuIds, Instant now) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(CREATE)) {
                Rows.bind(ps, name, node, now, now);
                if (ps.executeUpdate() == 0) {
                    return null; // the lane exists, with its GPUs
                }
            }
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT_GPU)) {
                for (int i = 0; i < gpuIds.size(); i++) {
                    Rows.bind(ps, name, i, gpuIds.get(i));
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    /** Pauses (no new starts) or resumes a lane; returns whether the row changed. */
    public boolean setPaused(String name, boolean paused, Instant now) {
        return Rows.sql(() -> {
            Optional<LaneRecord> current = find(name);
            if (current.isEmpty() || current.get().paused() == paused) {
                return false;
            }
            try (PreparedStatement ps = db.connection().prepareStatement(SET_PAUSED)) {
                Rows.bind(ps, paused ? 1 : 0, now, name);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** Switches the lane's runner on or off ({@code lane.runner}). */
    public void setRunner(String name, boolean on, Instant now) {
        update(SET_RUNNER, on ? 1 : 0, now, name);
    }

    /** How many of the lane's jobs may run at once (at least 1). */
    public void setConcurrency(String name, int concurrency, Instant now) {
        update(SET_CONCURRENCY, concurrency, now, name);
    }

    /**
     * What the runner last said ({@code state} as JSON) and when; null for both when it said
     * nothing readable, which never means "nothing runs".
     */
    public void saveRunnerState(String name, String stateJson, Instant seenAt) {
        update(SET_RUNNER_STATE, stateJson, seenAt, name);
    }

    private void update(String sql, Object... args) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
                Rows.bind(ps, args);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** The sequence number after the lane's last job: new jobs join the tail, 1000 apart. */
    public long nextSeq(String lane) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(MAX_SEQ)) {
                ps.setString(1, lane);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long max = rs.getLong(1);
                    return rs.wasNull() ? 1000 : max + 1000;
                }
            }
        });
    }

    private List<LaneRecord> query(String sql, Object... args) throws SQLException {
        Map<String, List<Integer>> gpus = new HashMap<>(); // a few lanes: read before, not in step
        try (PreparedStatement ps = db.connection().prepareStatement("WITH picked AS (" + sql + ") " + GPUS)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    gpus.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getInt(2));
                }
            }
        }
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<LaneRecord> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new LaneRecord(rs.getString("name"), rs.getString("node"), gpus.getOrDefault(rs.getString("name"), List.of()),
                            rs.getInt("paused") != 0, Math.max(1, rs.getInt("concurrency")), rs.getInt("runner") != 0,
                            rs.getString("runner_state"), Rows.instant(rs, "runner_seen_at"),
                            Rows.instant(rs, "created_at"), Rows.instant(rs, "updated_at")));
                }
                return out;
            }
        }
    }
}
