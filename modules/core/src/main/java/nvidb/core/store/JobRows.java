package nvidb.core.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;

/** A row of {@code jobs} with its lists (from {@link JobLists}) as a {@link Job}: the one place that reads its columns. */
final class JobRows {
    private JobRows() {
    }

    static Job map(ResultSet rs, JobLists.Lists lists) throws SQLException {
        return new Job(
                rs.getLong("id"),
                rs.getString("name"),
                JobState.fromLabel(rs.getString("state")),
                rs.getString("command"),
                rs.getString("workdir"),
                lists.env(),
                rs.getInt("priority"),
                rs.getInt("gpus"),
                rs.getLong("vram_mb"),
                rs.getString("node_constraint"),
                lists.dependsOn(),
                lists.dependsAny(),
                Rows.intOrNull(rs, "max_runtime_s"),
                rs.getString("submitter"),
                lists.tags(),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "updated_at"),
                Rows.instant(rs, "started_at"),
                Rows.instant(rs, "finished_at"),
                rs.getString("node"),
                lists.gpuIds(),
                rs.getString("lane"),
                Rows.longOrNull(rs, "lane_seq"),
                Rows.intOrNull(rs, "remote_pid"),
                Rows.intOrNull(rs, "remote_pgid"),
                rs.getString("run_dir"),
                Rows.intOrNull(rs, "exit_code"),
                rs.getInt("attempt"),
                rs.getInt("max_retries"),
                rs.getString("last_error"),
                Rows.instant(rs, "heartbeat_at"),
                Rows.intOrNull(rs, "gpu_mem_mb"),
                rs.getString("result"),
                rs.getString("notes"),
                rs.getString("progress"),
                Rows.instant(rs, "progress_at"),
                rs.getString("held_reason"),
                rs.getString("idempotency_key"),
                new Job.Learned(
                        Rows.intOrNull(rs, "peak_vram_mb"),
                        rs.getDouble("util_sum"),
                        rs.getInt("util_samples"),
                        Rows.instant(rs, "idle_since"),
                        Rows.instant(rs, "overrun_at"),
                        Rows.instant(rs, "idle_alerted_at"),
                        rs.getString("vram_source"),
                        rs.getString("failure"),
                        rs.getInt("oom_retry"),
                        rs.getInt("oom_retries")),
                rs.getString("user"),
                rs.getString("wait_reason"));
    }
}
