package nvidb.core.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.JobState;
import nvidb.core.store.JobRepository.Column;
import nvidb.core.util.BootClock;

/**
 * What a move of the job lifecycle writes to one job's row, for {@link JobRepository#update}:
 * one typed setter per column a move may change, each taking null for SQL NULL. The columns
 * themselves stay inside the store; only the lifecycle builds these (an ArchUnit rule holds
 * that), and a command or pass that changes a field that is no part of a job's state has a
 * method of its own on {@link JobRepository}.
 */
public final class JobChanges {
    private final Map<Column, Object> values = new LinkedHashMap<>();

    JobChanges set(Column column, Object value) {
        values.put(column, value);
        return this;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public JobChanges state(JobState state) {
        return set(Column.STATE, state == null ? null : state.label());
    }

    /** The node the job is placed on (not its {@code --node} pin). */
    public JobChanges node(String node) {
        return set(Column.NODE, node);
    }

    /** The GPUs it holds there; empty for none. */
    public JobChanges gpuIds(List<Integer> gpuIds) {
        return set(Column.GPU_IDS, gpuIds);
    }

    public JobChanges remotePid(Integer pid) {
        return set(Column.REMOTE_PID, pid);
    }

    public JobChanges remotePgid(Integer pgid) {
        return set(Column.REMOTE_PGID, pgid);
    }

    public JobChanges runDir(String runDir) {
        return set(Column.RUN_DIR, runDir);
    }

    public JobChanges startedAt(Instant at) {
        return set(Column.STARTED_AT, at);
    }

    /** The start on the queue host's boot clock (V008), which {@code --timeout} counts on; null for none. */
    public JobChanges startedOn(BootClock clock) {
        return set(Column.STARTED_BOOT_ID, clock == null ? null : clock.bootId())
                .set(Column.STARTED_UPTIME_MS, clock == null ? null : clock.uptimeMs());
    }

    public JobChanges heartbeatAt(Instant at) {
        return set(Column.HEARTBEAT_AT, at);
    }

    public JobChanges attempt(int attempt) {
        return set(Column.ATTEMPT, attempt);
    }

    public JobChanges exitCode(Integer exitCode) {
        return set(Column.EXIT_CODE, exitCode);
    }

    public JobChanges finishedAt(Instant at) {
        return set(Column.FINISHED_AT, at);
    }

    public JobChanges lastError(String error) {
        return set(Column.LAST_ERROR, error);
    }

    public JobChanges gpuMemMb(Integer mb) {
        return set(Column.GPU_MEM_MB, mb);
    }

    /** Its reservation per GPU and where that figure came from (stored JSON). */
    public JobChanges vram(long mb, String source) {
        return set(Column.VRAM_MB, mb).set(Column.VRAM_SOURCE, source);
    }

    /** Why it failed when that is known ({@code oom}, {@code killed}); null for none. */
    public JobChanges failure(String failure) {
        return set(Column.FAILURE, failure);
    }

    /** How many times it was requeued bigger after running out of GPU memory. */
    public JobChanges oomRetries(int n) {
        return set(Column.OOM_RETRIES, n);
    }

    /** The last line of its status file and when it changed; both null to clear them. */
    public JobChanges progress(String status, Instant at) {
        return set(Column.PROGRESS, status).set(Column.PROGRESS_AT, at);
    }

    /** The stored JSON of its result. */
    public JobChanges result(String json) {
        return set(Column.RESULT, json);
    }

    /** Why a pending job is held; null when it is not. */
    public JobChanges heldReason(String reason) {
        return set(Column.HELD_REASON, reason);
    }

    public JobChanges laneSeq(Long seq) {
        return set(Column.LANE_SEQ, seq);
    }

    /** Its {@code --after} prerequisites (null for none). */
    public JobChanges dependsOn(List<Long> ids) {
        return set(Column.DEPENDS_ON, ids);
    }

    /** Its {@code --after-any} prerequisites (null for none). */
    public JobChanges dependsAny(List<Long> ids) {
        return set(Column.DEPENDS_ANY, ids);
    }

    /** Writes the changes to job {@code id} and touches {@code updated_at}; the lists replace their child rows. */
    void write(Connection c, long id, Instant now) throws SQLException {
        if (values.isEmpty()) {
            return;
        }
        StringBuilder sql = new StringBuilder("UPDATE jobs SET ");
        List<Object> args = new ArrayList<>();
        for (Map.Entry<Column, Object> e : values.entrySet()) {
            Column column = e.getKey();
            if (column.sql == null) {
                replaceList(c, id, column, (List<?>) e.getValue());
                continue;
            }
            sql.append(column.sql).append(" = ?, ");
            args.add(e.getValue());
        }
        sql.append("updated_at = ? WHERE id = ?");
        args.add(now);
        args.add(id);
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            Rows.bind(ps, args.toArray());
            ps.executeUpdate();
        }
    }

    @SuppressWarnings("unchecked")
    private static void replaceList(Connection c, long id, Column column, List<?> values) throws SQLException {
        List<?> list = values == null ? List.of() : values;
        if (column == Column.GPU_IDS) {
            JobLists.replaceGpus(c, id, (List<Integer>) list);
        } else {
            JobLists.replaceDependencies(c, id, column == Column.DEPENDS_ANY, (List<Long>) list);
        }
    }
}
