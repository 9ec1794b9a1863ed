package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the queue measures of running jobs and learns from finished ones (schema 10): each look's
 * peak and utilisation, the one overrun and idle mark a job gets, and a family's completed peaks.
 * These columns describe a job's use, not its state: writing them leaves {@code updated_at} alone.
 */
public final class UsageRepository {
    private static final String LOOK = """
            UPDATE jobs SET peak_vram_mb = ?, util_sum = ?, util_samples = ?, idle_since = ? WHERE id = ?
            """;
    /** Adds one look's energy (NULL: no power figure, energy_j stays as it is) and idle GPU-seconds. */
    private static final String METER = """
            UPDATE jobs SET energy_j = CASE WHEN ?1 IS NULL THEN energy_j ELSE COALESCE(energy_j, 0) + ?1 END,
                            idle_gpu_s = idle_gpu_s + ?2
            WHERE id = ?3
            """;
    private static final String OVERRUN = "UPDATE jobs SET overrun_at = ? WHERE id = ? AND overrun_at IS NULL";
    private static final String IDLE_ALERTED = "UPDATE jobs SET idle_alerted_at = ? WHERE id = ? AND idle_alerted_at IS NULL";
    private static final String LEARNED = """
            SELECT id, peak_vram_mb FROM jobs
            WHERE state = 'completed' AND peak_vram_mb IS NOT NULL AND %s
            ORDER BY finished_at DESC, id DESC LIMIT ?
            """;
    private static final String BY_NAME = "name_family = ?";
    private static final String BY_COMMAND = "command_family = ?";
    private static final String BY_SWEEP = "id IN (SELECT job_id FROM sweep_runs WHERE sweep_id = ?)";
    private static final String RESERVE = "UPDATE jobs SET vram_mb = ?, vram_source = ?, updated_at = ? WHERE id = ?";
    private static final String IDLE_RUNNING = """
            SELECT COUNT(*) FROM jobs WHERE state = 'running' AND idle_since IS NOT NULL AND idle_since <= ?
            """;

    private static final String AUTO_PENDING = """
            SELECT j.id, j.gpus, j.name_family, r.sweep_id, j.command_family, j.node_constraint, j.vram_mb, j.vram_source
            FROM jobs j LEFT JOIN sweep_runs r ON r.job_id = j.id
            WHERE j.state = 'pending' AND j.run_dir IS NULL
              AND json_extract(j.vram_source, '$.kind') IN ('first_run', 'learned')
            ORDER BY j.id
            """;

    /** A waiting job sized by {@code --vram auto}, as the pass sizes it again. */
    public record AutoPending(long id, int gpus, String nameFamily, Long sweepId, String commandFamily, String node,
                              long vramMb, String vramSource) {
    }

    /** A completed run's measured peak. */
    public record Peak(long jobId, int peakMb) {
    }

    private final Database db;

    UsageRepository(Database db) {
        this.db = db;
    }

    /** One look at a running job: its peak so far, its utilisation's running sum and count, and since when it idles. */
    public void look(long id, Integer peakMb, double utilSum, int utilSamples, Instant idleSince) {
        update(LOOK, peakMb, utilSum, utilSamples, idleSince, id);
    }

    /** What one look metered of a running job: joules drawn (null where no power was reported) and idle GPU-seconds. */
    public void meter(long id, Double joules, double idleGpuSeconds) {
        update(METER, joules, idleGpuSeconds, id);
    }

    /** Marks the job's first overrun; false when it had one already. */
    public boolean markOverrun(long id, Instant at) {
        return update(OVERRUN, at, id) == 1;
    }

    /** Marks the job's idle alert; false when it had one already. */
    public boolean markIdleAlerted(long id, Instant at) {
        return update(IDLE_ALERTED, at, id) == 1;
    }

    /** The newest {@code limit} completed runs of a name family with a measured peak, newest first. */
    public List<Peak> byName(String family, int limit) {
        return peaks(BY_NAME, family, limit);
    }

    /** As {@link #byName}, for the runs of a sweep. */
    public List<Peak> bySweep(long sweepId, int limit) {
        return peaks(BY_SWEEP, sweepId, limit);
    }

    /** As {@link #byName}, for a command family. */
    public List<Peak> byCommand(String family, int limit) {
        return peaks(BY_COMMAND, family, limit);
    }

    /** A pending job's reservation, learned again, and where it came from. */
    public void reserve(long id, long vramMb, String source, Instant now) {
        update(RESERVE, vramMb, source, now, id);
    }

    /** Waiting jobs sized by {@code --vram auto} and not yet handed to a node or runner. */
    public List<AutoPending> autoPending() {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(AUTO_PENDING); ResultSet rs = ps.executeQuery()) {
                List<AutoPending> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new AutoPending(rs.getLong("id"), rs.getInt("gpus"), rs.getString("name_family"),
                            Rows.longOrNull(rs, "sweep_id"), rs.getString("command_family"), rs.getString("node_constraint"), rs.getLong("vram_mb"),
                            rs.getString("vram_source")));
                }
                return out;
            }
        });
    }

    /** Running jobs whose GPUs have idled since {@code cutoff} or before. */
    public int idleRunning(Instant cutoff) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(IDLE_RUNNING)) {
                Rows.bind(ps, cutoff);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : 0;
                }
            }
        });
    }

    private List<Peak> peaks(String where, Object key, int limit) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(LEARNED.formatted(where))) {
                Rows.bind(ps, key, limit);
                List<Peak> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Peak(rs.getLong(1), rs.getInt(2)));
                    }
                }
                return out;
            }
        });
    }

    private int update(String sql, Object... args) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
                Rows.bind(ps, args);
                return ps.executeUpdate();
            }
        });
    }
}
