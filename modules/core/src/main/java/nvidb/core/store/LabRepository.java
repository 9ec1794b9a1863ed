package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a lab of several people on one queue reads and writes (schema 13): the runs of GPU jobs
 * fair share weighs, each user's waiting jobs (their {@code max_pending}), and why the last pass
 * left a job waiting. A wait reason describes the pass, not the job's state: writing it leaves
 * {@code updated_at} alone.
 */
public final class LabRepository {
    /**
     * Every GPU job that ran since {@code ?}: the running ones, and the finished ones that ended
     * since. A job requeued after a run lost that run's times, so what it used then no longer counts.
     */
    private static final String GPU_RUNS = """
            SELECT user, gpus, started_at, finished_at, state FROM jobs
            WHERE gpus > 0 AND started_at IS NOT NULL AND (state = 'running' OR finished_at >= ?)
            """;
    private static final String PENDING_OF = "SELECT COUNT(*) FROM jobs WHERE state = 'pending' AND user IS ?";
    private static final String ACTIVE_BY_USER = """
            SELECT user,
                   SUM(state = 'running') AS running,
                   SUM(CASE WHEN state = 'running' THEN gpus ELSE 0 END) AS running_gpus,
                   SUM(state = 'pending') AS pending
            FROM jobs WHERE state IN ('pending', 'running') GROUP BY user ORDER BY user
            """;
    private static final String WAIT_REASON = "UPDATE jobs SET wait_reason = ? WHERE id = ?";

    /** One run of a GPU job: who, how many GPUs, from when to when (null: still running). */
    public record GpuRun(String user, int gpus, Instant startedAt, Instant finishedAt) {
    }

    /** One user's jobs under way and waiting. */
    public record Active(String user, int running, int runningGpus, int pending) {
    }

    private final Database db;

    LabRepository(Database db) {
        this.db = db;
    }

    /** The GPU jobs running now and those that ended at or after {@code since}. */
    public List<GpuRun> gpuRunsSince(Instant since) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(GPU_RUNS)) {
                Rows.bind(ps, since);
                List<GpuRun> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        boolean running = "running".equals(rs.getString("state"));
                        out.add(new GpuRun(rs.getString("user"), rs.getInt("gpus"), Rows.instant(rs, "started_at"),
                                running ? null : Rows.instant(rs, "finished_at")));
                    }
                }
                return out;
            }
        });
    }

    /** Each user's running jobs, their GPUs, and waiting jobs (held ones included). */
    public List<Active> activeByUser() {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(ACTIVE_BY_USER); ResultSet rs = ps.executeQuery()) {
                List<Active> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new Active(rs.getString("user"), rs.getInt("running"), rs.getInt("running_gpus"),
                            rs.getInt("pending")));
                }
                return out;
            }
        });
    }

    /** How many jobs of {@code user} wait (held ones included): what {@code max_pending} counts. */
    public int pendingOf(String user) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(PENDING_OF)) {
                Rows.bind(ps, user);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : 0;
                }
            }
        });
    }

    /** Writes each job's wait reason (a null value clears it). */
    public void setWaitReasons(Map<Long, String> reasons) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(WAIT_REASON)) {
                for (Map.Entry<Long, String> e : reasons.entrySet()) {
                    Rows.bind(ps, e.getValue(), e.getKey());
                    ps.addBatch();
                }
                ps.executeBatch();
                return null;
            }
        });
    }
}
