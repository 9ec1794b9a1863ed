package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code batch_jobs} table: what nvidb handed to batch nodes (Slurm), and what they said. */
public final class BatchRepository {
    private static final String COLUMNS = "job_id, no_burst, waiting_since, node, batch_id, run_dir, state, reason";
    private static final String BY_JOB = "SELECT " + COLUMNS + " FROM batch_jobs WHERE job_id = ?";
    /** The rows of pending and running jobs: all a pass needs, found through the jobs' state index. */
    private static final String ACTIVE = """
            SELECT b.job_id, b.no_burst, b.waiting_since, b.node, b.batch_id, b.run_dir, b.state, b.reason
            FROM jobs j JOIN batch_jobs b ON b.job_id = j.id WHERE j.state IN ('pending', 'running')
            """;
    private static final String ENSURE = "INSERT OR IGNORE INTO batch_jobs (job_id, updated_at) VALUES (?, ?)";
    private static final String NO_BURST = "UPDATE batch_jobs SET no_burst = 1, updated_at = ? WHERE job_id = ?";
    private static final String WAITING = """
            UPDATE batch_jobs SET waiting_since = COALESCE(waiting_since, ?), updated_at = ? WHERE job_id = ?
            """;
    private static final String SUBMITTED = """
            UPDATE batch_jobs SET node = ?, batch_id = ?, run_dir = ?, state = 'SUBMITTED', reason = ?, updated_at = ?
            WHERE job_id = ?
            """;
    private static final String POLLED = "UPDATE batch_jobs SET state = ?, reason = ?, updated_at = ? WHERE job_id = ?";
    private static final String FORGET = """
            UPDATE batch_jobs SET waiting_since = NULL, node = NULL, batch_id = NULL, run_dir = NULL, state = NULL,
                                  reason = NULL, updated_at = ? WHERE job_id = ?
            """;

    /**
     * One job's row.
     *
     * @param node    the batch node it was submitted to, null while it was not
     * @param runDir  the run directory of the attempt submitted
     */
    public record BatchJob(long jobId, boolean noBurst, Instant waitingSince, String node, String batchId,
                           String runDir, String state, String reason) {
        /** Submitted for the job's current attempt (its run directory is the one recorded). */
        public boolean submittedAs(String jobRunDir) {
            return batchId != null && runDir != null && runDir.equals(jobRunDir);
        }
    }

    private final Database db;

    public BatchRepository(Database db) {
        this.db = db;
    }

    public Optional<BatchJob> find(long jobId) {
        return Rows.sql(() -> {
            List<BatchJob> rows = query(BY_JOB, jobId);
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
        });
    }

    /** The rows of every pending or running job, by job id. */
    public Map<Long, BatchJob> active() {
        return Rows.sql(() -> {
            Map<Long, BatchJob> out = new LinkedHashMap<>();
            for (BatchJob b : query(ACTIVE)) {
                out.put(b.jobId(), b);
            }
            return out;
        });
    }

    /** {@code submit --no-burst}: the job never overflows to a batch node. */
    public void noBurst(long jobId, Instant now) {
        ensure(jobId, now);
        execute(NO_BURST, now, jobId);
    }

    /** No workstation could take the job at {@code since}, unless an earlier pass saw that first. */
    public void waiting(long jobId, Instant since) {
        ensure(jobId, since);
        execute(WAITING, since, since, jobId);
    }

    public void submitted(long jobId, String node, String batchId, String runDir, String reason, Instant now) {
        ensure(jobId, now);
        execute(SUBMITTED, node, batchId, runDir, reason, now, jobId);
    }

    /** What the batch system said of the job at this pass. */
    public void polled(long jobId, String state, String reason, Instant now) {
        execute(POLLED, state, reason, now, jobId);
    }

    /** The submission is over without a result (preempted, or never known to the batch system). */
    public void forget(long jobId, Instant now) {
        execute(FORGET, now, jobId);
    }

    private void ensure(long jobId, Instant now) {
        execute(ENSURE, jobId, now);
    }

    private void execute(String sql, Object... values) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
                Rows.bind(ps, values);
                ps.executeUpdate();
            }
            return null;
        });
    }

    private List<BatchJob> query(String sql, Object... values) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, values);
            try (ResultSet rs = ps.executeQuery()) {
                List<BatchJob> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new BatchJob(rs.getLong("job_id"), rs.getInt("no_burst") == 1,
                            Rows.instant(rs, "waiting_since"), rs.getString("node"), rs.getString("batch_id"),
                            rs.getString("run_dir"), rs.getString("state"), rs.getString("reason")));
                }
                return out;
            }
        }
    }
}
