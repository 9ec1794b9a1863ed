package nvidb.core.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Json;
import nvidb.core.api.Sweeps;

/** The {@code sweeps} and {@code sweep_runs} tables (schema 4). */
public final class SweepRepository {
    private static final String INSERT = """
            INSERT INTO sweeps (name, command, params, spec, max_parallel, submitter, idempotency_key, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """;
    private static final String INSERT_RUN = "INSERT INTO sweep_runs (job_id, sweep_id, run_index, params) VALUES (?, ?, ?, ?)";
    private static final String RENAME = "UPDATE sweeps SET name = ? WHERE id = ?";
    private static final String BY_ID = "SELECT * FROM sweeps WHERE id = ?";
    private static final String BY_KEY = "SELECT * FROM sweeps WHERE idempotency_key = ?";
    private static final String ALL = "SELECT * FROM sweeps ORDER BY id DESC";
    private static final String NEXT_ID = "SELECT seq FROM sqlite_sequence WHERE name = 'sweeps'";
    /** {@code sweep show}: each run with the few columns of its job it shows, purged ones too. */
    private static final String SHOW = """
            SELECT r.run_index, r.job_id, r.params, j.id AS present, j.name, j.state, j.held_reason, j.exit_code,
                   j.started_at, j.finished_at, j.progress, j.result, j.vram_mb, j.peak_vram_mb, j.util_sum, j.util_samples
            FROM sweep_runs r LEFT JOIN jobs j ON j.id = r.job_id
            WHERE r.sweep_id = ? ORDER BY r.run_index
            """;
    private static final String RUNS = "SELECT job_id, run_index, params FROM sweep_runs WHERE sweep_id = ? ORDER BY run_index";
    /** Runs by state, purged ones (no job row) as NULL; held ones apart from pending. */
    private static final String COUNTS = """
            SELECT r.sweep_id,
                   CASE WHEN j.id IS NULL THEN 'purged'
                        WHEN j.state = 'pending' AND j.held_reason IS NOT NULL AND j.held_reason != '' THEN 'held'
                        ELSE j.state END AS s,
                   COUNT(*)
            FROM sweep_runs r LEFT JOIN jobs j ON j.id = r.job_id
            GROUP BY r.sweep_id, s
            """;
    /**
     * The active runs of every sweep with a {@code max_parallel}: read through the index on
     * jobs.state, so a pass never reads the runs of finished sweeps.
     */
    private static final String LIMITED = """
            SELECT r.job_id, r.sweep_id, s.max_parallel
            FROM jobs j JOIN sweep_runs r ON r.job_id = j.id JOIN sweeps s ON s.id = r.sweep_id
            WHERE j.state IN ('pending', 'running') AND s.max_parallel IS NOT NULL
            """;

    private final Database db;

    public SweepRepository(Database db) {
        this.db = db;
    }

    public long insert(String name, String command, List<String> params, Map<String, Object> spec, Integer maxParallel,
                       String submitter, String idempotencyKey, Instant now) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT, Statement.RETURN_GENERATED_KEYS)) {
                Rows.bind(ps, name, command, Json.write(params), Json.write(spec), maxParallel, submitter, idempotencyKey, now);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    /** Names a sweep whose name needed its id ({@code sweep<ID>}). */
    public void rename(long id, String name) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(RENAME)) {
                Rows.bind(ps, name, id);
                return ps.executeUpdate();
            }
        });
    }

    /** The id the next sweep gets (a dry run names its runs with it). */
    public long nextId() {
        return Rows.sql(() -> {
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(NEXT_ID)) {
                return rs.next() ? rs.getLong(1) + 1 : 1;
            }
        });
    }

    public void insertRun(long sweepId, int index, long jobId, Map<String, String> params) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT_RUN)) {
                Rows.bind(ps, jobId, sweepId, index, Json.write(params));
                return ps.executeUpdate();
            }
        });
    }

    public Optional<Sweeps.Sweep> find(long id) {
        return Rows.sql(() -> first(query(BY_ID, id)));
    }

    public Optional<Sweeps.Sweep> findByIdempotencyKey(String key) {
        return Rows.sql(() -> first(query(BY_KEY, key)));
    }

    /** Every sweep, newest first. */
    public List<Sweeps.Sweep> all() {
        return Rows.sql(() -> query(ALL));
    }

    /** One sweep's runs, by index; {@code jobId} is set even when the job was purged. */
    public List<Sweeps.Run> runs(long sweepId) {
        return Rows.sql(() -> {
            List<Sweeps.Run> out = new ArrayList<>();
            try (PreparedStatement ps = db.connection().prepareStatement(RUNS)) {
                Rows.bind(ps, sweepId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Sweeps.Run(rs.getInt("run_index"), params(rs.getString("params")), null,
                                null, rs.getLong("job_id")));
                    }
                }
            }
            return out;
        });
    }

    /** One sweep's runs with their jobs' status, by index: {@code sweep show} reads nothing else of the jobs. */
    public List<Sweeps.Row> show(long sweepId, java.util.function.Function<String, Map<String, Double>> metrics) {
        return Rows.sql(() -> {
            List<Sweeps.Row> out = new ArrayList<>();
            try (PreparedStatement ps = db.connection().prepareStatement(SHOW)) {
                Rows.bind(ps, sweepId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        boolean present = rs.getObject("present") != null;
                        String state = !present ? "purged" : rs.getString("state");
                        String held = rs.getString("held_reason");
                        if ("pending".equals(state) && held != null && !held.isEmpty()) {
                            state = "held";
                        }
                        String result = rs.getString("result");
                        Sweeps.Run run = new Sweeps.Run(rs.getInt("run_index"), params(rs.getString("params")),
                                rs.getString("name"), null, rs.getLong("job_id"));
                        out.add(new Sweeps.Row(run, new Sweeps.RunStatus(state, Rows.intOrNull(rs, "exit_code"),
                                Rows.instant(rs, "started_at"), Rows.instant(rs, "finished_at"), rs.getString("progress"),
                                result, Rows.longOrNull(rs, "vram_mb"), Rows.intOrNull(rs, "peak_vram_mb"),
                                rs.getInt("util_samples") == 0 ? null
                                        : Math.round(rs.getDouble("util_sum") / rs.getInt("util_samples") * 10) / 10.0),
                                metrics.apply(result)));
                    }
                }
            }
            return out;
        });
    }

    /** Sweep id → state (or {@code held}, {@code purged}) → how many runs. */
    public Map<Long, Map<String, Integer>> counts() {
        return Rows.sql(() -> {
            Map<Long, Map<String, Integer>> out = new HashMap<>();
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(COUNTS)) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getLong(1), k -> new LinkedHashMap<>()).put(rs.getString(2), rs.getInt(3));
                }
            }
            return out;
        });
    }

    /** A pending or running run of a sweep with a limit: its sweep and that limit. */
    public record Limited(long jobId, long sweepId, int maxParallel) {
    }

    public List<Limited> limitedActive() {
        return Rows.sql(() -> {
            List<Limited> out = new ArrayList<>();
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(LIMITED)) {
                while (rs.next()) {
                    out.add(new Limited(rs.getLong(1), rs.getLong(2), rs.getInt(3)));
                }
            }
            return out;
        });
    }

    private List<Sweeps.Sweep> query(String sql, Object... args) throws SQLException {
        List<Sweeps.Sweep> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Sweeps.Sweep(rs.getLong("id"), rs.getString("name"), rs.getString("command"),
                            stored(rs.getString("params"), NAMES, List.of()), stored(rs.getString("spec"), SPEC, Map.of()),
                            Rows.intOrNull(rs, "max_parallel"), rs.getString("submitter"),
                            rs.getString("idempotency_key"), Rows.instant(rs, "created_at")));
                }
            }
        }
        return out;
    }

    private static final TypeReference<List<String>> NAMES = new TypeReference<>() {
    };
    private static final TypeReference<LinkedHashMap<String, Object>> SPEC = new TypeReference<>() {
    };

    /**
     * A JSON column of this table read back through the one mapper; only this repository writes
     * them, so text that does not read (a hand-edited database) shows as empty rather than failing the listing.
     */
    private static <T> T stored(String text, TypeReference<? extends T> type, T empty) {
        if (text == null) {
            return empty;
        }
        try {
            return Json.read(text, type);
        } catch (JsonProcessingException e) {
            return empty;
        }
    }

    /**
     * A run's parameters ({@code {"lr": "1e-3"}}), read as tokens rather than through the mapper:
     * {@code sweep show} reads one a run, thousands of them, and the mapper's per-call set-up was
     * the largest part of reading a run. As {@link #stored}: what does not read shows as none.
     */
    private static Map<String, String> params(String text) {
        if (text == null) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        try (JsonParser p = Json.parser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Map.of();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == null || !value.isScalarValue()) {
                    return Map.of();
                }
                out.put(name, p.getValueAsString());
            }
        } catch (java.io.IOException e) {
            return Map.of();
        }
        return out;
    }

    private static <T> Optional<T> first(List<T> list) {
        return list.isEmpty() ? Optional.empty() : Optional.of(list.getFirst());
    }
}
