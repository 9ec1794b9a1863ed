package nvidb.core.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.util.BootClock;

/** The {@code jobs} table. */
public final class JobRepository {
    private static final String SELECT = "SELECT * FROM jobs";

    private static final String INSERT = """
            INSERT INTO jobs (name, command, workdir, state, priority, gpus, vram_mb, node_constraint, max_runtime_s,
                              submitter, created_at, updated_at, lane, lane_seq, max_retries, notes, idempotency_key,
                              vram_source, name_family, command_family, oom_retry, user)
            VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;

    private static final String DELETE = "DELETE FROM jobs WHERE id = ?";

    /**
     * Columns an update may change, so updates name their columns without building SQL from input.
     * {@code DEPENDS_ON}, {@code DEPENDS_ANY} and {@code GPU_IDS} take a list and are child tables
     * ({@link JobLists}), not columns of {@code jobs}. Outside the store a move names them through
     * {@link JobChanges}' typed setters, and anything else through this class's own methods.
     */
    enum Column {
        NAME("name"), STATE("state"), PRIORITY("priority"), NODE_CONSTRAINT("node_constraint"),
        DEPENDS_ON(null), DEPENDS_ANY(null), STARTED_AT("started_at"),
        FINISHED_AT("finished_at"), NODE("node"), GPU_IDS(null), LANE("lane"), LANE_SEQ("lane_seq"),
        REMOTE_PID("remote_pid"), REMOTE_PGID("remote_pgid"), RUN_DIR("run_dir"), EXIT_CODE("exit_code"),
        ATTEMPT("attempt"), LAST_ERROR("last_error"), HEARTBEAT_AT("heartbeat_at"), GPU_MEM_MB("gpu_mem_mb"),
        RESULT("result"), NOTES("notes"), PROGRESS("progress"), PROGRESS_AT("progress_at"),
        HELD_REASON("held_reason"), STARTED_BOOT_ID("started_boot_id"), STARTED_UPTIME_MS("started_uptime_ms"),
        VRAM_MB("vram_mb"), VRAM_SOURCE("vram_source"), FAILURE("failure"), OOM_RETRIES("oom_retries");

        final String sql;

        Column(String sql) {
            this.sql = sql;
        }
    }

    private final Database db;

    public JobRepository(Database db) {
        this.db = db;
    }

    private Connection c() {
        return db.connection();
    }

    /** The fields of a new job; ids and timestamps are the store's. */
    public record NewJob(String name, String command, String workdir, Map<String, String> env, int priority, int gpus,
                         long vramMb, String nodeConstraint, List<Long> dependsOn, List<Long> dependsAny,
                         Integer maxRuntimeS, String submitter, List<String> tags, String lane, Long laneSeq,
                         int maxRetries, String notes, String idempotencyKey, Sizing sizing, String user) {
        public NewJob {
            sizing = sizing == null ? Sizing.NONE : sizing;
        }

        public NewJob(String name, String command, String workdir, Map<String, String> env, int priority, int gpus,
                      long vramMb, String nodeConstraint, List<Long> dependsOn, List<Long> dependsAny,
                      Integer maxRuntimeS, String submitter, List<String> tags, String lane, Long laneSeq,
                      int maxRetries, String notes, String idempotencyKey) {
            this(name, command, workdir, env, priority, gpus, vramMb, nodeConstraint, dependsOn, dependsAny, maxRuntimeS,
                    submitter, tags, lane, laneSeq, maxRetries, notes, idempotencyKey, Sizing.NONE, null);
        }
    }

    /**
     * How a new job's reservation was chosen and what it learns from: {@code vramSource} as stored
     * JSON, its two family keys, and its out-of-memory retries ({@code --oom-retry}).
     */
    public record Sizing(String vramSource, String nameFamily, String commandFamily, int oomRetry) {
        public static final Sizing NONE = new Sizing(null, null, null, 0);
    }

    public long insert(NewJob j, Instant now) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = c().prepareStatement(INSERT, Statement.RETURN_GENERATED_KEYS)) {
                Rows.bind(ps, j.name(), j.command(), j.workdir(), j.priority(), j.gpus(), j.vramMb(), j.nodeConstraint(),
                        j.maxRuntimeS(), j.submitter(), now, now, j.lane(), j.laneSeq(), j.maxRetries(), j.notes(),
                        j.idempotencyKey(), j.sizing().vramSource(), j.sizing().nameFamily(), j.sizing().commandFamily(),
                        j.sizing().oomRetry(), j.user());
                ps.executeUpdate();
                long id;
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    id = keys.getLong(1);
                }
                JobLists.insert(c(), id, j.env(), j.dependsOn(), j.dependsAny(), j.tags());
                return id;
            }
        });
    }

    /** One job (read after every move): its lists by {@link JobLists#ofJob}, not a stream's cursor. */
    public Optional<Job> find(long id) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = c().prepareStatement(SELECT + " WHERE id = ?")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(JobRows.map(rs, JobLists.ofJob(c(), id))) : Optional.empty();
                }
            }
        });
    }

    public Optional<Job> findByIdempotencyKey(String key) {
        return Rows.sql(() -> {
            List<Job> jobs = query(SELECT + " WHERE idempotency_key = ?", key);
            return jobs.isEmpty() ? Optional.empty() : Optional.of(jobs.getFirst());
        });
    }

    /** Every job, id ascending. */
    public List<Job> all() {
        return Rows.sql(() -> {
            return query(SELECT + " ORDER BY id");
        });
    }

    /** Pending and running jobs, id ascending. */
    public List<Job> active() {
        return Rows.sql(() -> query(SELECT + " WHERE state IN ('pending', 'running') ORDER BY id"));
    }

    /**
     * Pending and running jobs of lanes, id ascending: what lane views need, without reading a
     * backlog of pool jobs (10,000 pending jobs are 10,000 rows a status would hold for nothing).
     */
    public List<Job> activeInLanes() {
        return Rows.sql(() -> query(SELECT + " WHERE state IN ('pending', 'running') AND lane IS NOT NULL ORDER BY id"));
    }

    /**
     * Lane jobs handed to a runner and not yet seen to start: pending, with a run directory.
     * Their directories tell a pass whether the runner started them.
     */
    public List<Job> staged() {
        return Rows.sql(() -> {
            return query(SELECT + " WHERE state = 'pending' AND lane IS NOT NULL AND run_dir IS NOT NULL ORDER BY id");
        });
    }

    public List<Job> inStates(Collection<JobState> states) {
        return Rows.sql(() -> {
            if (states.isEmpty()) {
                return List.of();
            }
            String marks = states.stream().map(s -> "?").collect(Collectors.joining(", "));
            return query(SELECT + " WHERE state IN (" + marks + ") ORDER BY id",
                    states.stream().map(JobState::label).toArray());
        });
    }

    /** Running jobs' starts on the queue host's boot clock (V008), by job id; jobs started without one are absent. */
    public Map<Long, BootClock> runningStartClocks() {
        return Rows.sql(() -> {
            Map<Long, BootClock> out = new java.util.HashMap<>();
            try (PreparedStatement ps = c().prepareStatement("SELECT id, started_boot_id, started_uptime_ms FROM jobs"
                    + " WHERE state = 'running' AND started_boot_id IS NOT NULL AND started_uptime_ms IS NOT NULL");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), new BootClock(rs.getString(2), rs.getLong(3)));
                }
            }
            return out;
        });
    }

    /** The newest {@code limit} jobs, printed id ascending. */
    public List<Job> newest(int limit) {
        return Rows.sql(() -> {
            return query("SELECT * FROM (SELECT * FROM jobs ORDER BY id DESC LIMIT ?) ORDER BY id", limit);
        });
    }

    public List<Job> byIds(Collection<Long> ids) {
        return Rows.sql(() -> {
            if (ids.isEmpty()) {
                return List.of();
            }
            String marks = ids.stream().map(i -> "?").collect(Collectors.joining(", "));
            return query(SELECT + " WHERE id IN (" + marks + ") ORDER BY id", ids.toArray());
        });
    }

    /** The jobs of one sweep's runs (schema 4), id ascending. */
    public List<Job> inSweep(long sweepId) {
        return Rows.sql(() -> {
            return query(SELECT + " WHERE id IN (SELECT job_id FROM sweep_runs WHERE sweep_id = ?) ORDER BY id", sweepId);
        });
    }

    /** Pending jobs whose dependencies must be checked: they have some, or are held. */
    public List<Job> gateCandidates() {
        return Rows.sql(() -> {
            return query(SELECT + " WHERE state = 'pending' AND (held_reason IS NOT NULL"
                    + " OR id IN (SELECT job_id FROM job_dependencies)) ORDER BY id");
        });
    }

    /**
     * Jobs matching a listing filter, newest first.
     *
     * @param states  empty for every state
     * @param node    placement node, or the pin of a job not yet placed; null for any
     * @param tag     a tag the job carries; null for any
     * @param sweep   a sweep the job is a run of; null for any
     * @param limit   at most this many; 0 for all
     */
    public List<Job> search(Collection<JobState> states, boolean heldOnly, String node, String tag, Long sweep,
                            int limit) {
        List<Job> out = new ArrayList<>();
        each(states, heldOnly, node, tag, sweep, limit, false, out::add);
        return out;
    }

    /**
     * {@link #search}, each job handed to {@code sink} while the statement reads the next: a
     * listing of every job never holds them all. {@code oldestFirst} reverses the order; with a
     * limit, the jobs are still the newest {@code limit}. Returns how many were handed over.
     */
    public int each(Collection<JobState> states, boolean heldOnly, String node, String tag, Long sweep, int limit,
                    boolean oldestFirst, Consumer<? super Job> sink) {
        return Rows.sql(() -> {
            StringBuilder sql = new StringBuilder(SELECT + " WHERE 1 = 1");
            List<Object> args = new ArrayList<>();
            if (!states.isEmpty()) {
                sql.append(" AND state IN (").append(states.stream().map(s -> "?").collect(Collectors.joining(", ")))
                        .append(")");
                states.forEach(s -> args.add(s.label()));
            }
            if (heldOnly) {
                sql.append(" AND state = 'pending' AND held_reason IS NOT NULL AND held_reason != ''");
            }
            if (node != null) {
                sql.append(" AND (node = ? OR (node IS NULL AND node_constraint = ?))");
                args.add(node);
                args.add(node);
            }
            if (tag != null) {
                // job_tags (schema 4) holds each job's tags, indexed by tag.
                sql.append(" AND id IN (SELECT job_id FROM job_tags WHERE tag = ?)");
                args.add(tag);
            }
            if (sweep != null) {
                sql.append(" AND id IN (SELECT job_id FROM sweep_runs WHERE sweep_id = ?)");
                args.add(sweep);
            }
            // Oldest first with a limit: the newest that many, then turned round.
            sql.append(oldestFirst && limit == 0 ? " ORDER BY id" : " ORDER BY id DESC");
            if (limit > 0) {
                sql.append(" LIMIT ?");
                args.add(limit);
            }
            String query = oldestFirst && limit > 0 ? "SELECT * FROM (" + sql + ") ORDER BY id" : sql.toString();
            return stream(query, !oldestFirst, sink, args.toArray());
        });
    }

    /** Active jobs waiting on {@code id} through {@code --after}. */
    public List<Job> waitingOn(long id) {
        return Rows.sql(() -> {
            return query(SELECT + " WHERE state IN ('pending', 'running') AND id IN"
                    + " (SELECT job_id FROM job_dependencies WHERE prerequisite = ? AND kind = 'all') ORDER BY id", id);
        });
    }

    public Map<String, Long> countsByState() {
        return Rows.sql(() -> {
            Map<String, Long> counts = new java.util.LinkedHashMap<>();
            try (Statement s = c().createStatement();
                 ResultSet rs = s.executeQuery("SELECT state, COUNT(*) FROM jobs GROUP BY state")) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getLong(2));
                }
            }
            return counts;
        });
    }

    /** Writes what a move of the lifecycle changes in one job's row, and touches {@code updated_at}. */
    public void update(long id, JobChanges changes, Instant now) {
        Rows.sql(() -> {
            changes.write(c(), id, now);
            return null;
        });
    }

    // ------------------------------------------------------------------ fields that are no part of a job's state

    /**
     * A running job was seen alive: its heartbeat is now, and its progress line and process id
     * are written where the caller saw them change (null: unchanged).
     */
    public void heartbeat(long id, String progress, Integer pid, Instant now) {
        JobChanges alive = new JobChanges().heartbeatAt(now);
        if (progress != null) {
            alive.progress(progress, now);
        }
        if (pid != null) {
            alive.remotePid(pid);
        }
        update(id, alive, now);
    }

    /** The GPU memory a running job's processes were measured to hold. */
    public void recordGpuMemory(long id, int mb, Instant now) {
        update(id, new JobChanges().gpuMemMb(mb), now);
    }

    /** {@code job note}: null clears it. */
    public void setNotes(long id, String notes, Instant now) {
        update(id, new JobChanges().set(Column.NOTES, notes), now);
    }

    /** {@code job result --set}: the stored JSON. */
    public void setResult(long id, String json, Instant now) {
        update(id, new JobChanges().result(json), now);
    }

    public void setPriority(long id, int priority, Instant now) {
        update(id, new JobChanges().set(Column.PRIORITY, priority), now);
    }

    /** A queued lane job's place in its lane. */
    public void setLaneSeq(long id, long seq, Instant now) {
        update(id, new JobChanges().laneSeq(seq), now);
    }

    /**
     * A pending job's lane, its place there and the node it is pinned to (the lane's); all three
     * null take it out of any lane.
     */
    public void setLane(long id, String lane, Long seq, String nodeConstraint, Instant now) {
        update(id, new JobChanges().set(Column.LANE, lane).laneSeq(seq).set(Column.NODE_CONSTRAINT, nodeConstraint), now);
    }

    /** The node a pending job is pinned to ({@code --node}, or its lane's). */
    public void setNodeConstraint(long id, String node, Instant now) {
        update(id, new JobChanges().set(Column.NODE_CONSTRAINT, node), now);
    }

    public int delete(long id) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = c().prepareStatement(DELETE)) {
                ps.setLong(1, id);
                return ps.executeUpdate();
            }
        });
    }

    /** The jobs of {@code sql}, which selects rows of {@code jobs} ordered by id ascending. */
    private List<Job> query(String sql, Object... args) throws SQLException {
        List<Job> out = new ArrayList<>();
        stream(sql, false, out::add, args);
        return out;
    }

    /** Hands each job of {@code sql} (rows of {@code jobs}, ordered by id as {@code descending} says) to {@code sink}. */
    private int stream(String sql, boolean descending, Consumer<? super Job> sink, Object... args) throws SQLException {
        try (PreparedStatement ps = c().prepareStatement(sql)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return 0; // no lists statement: it builds its temporary tables even for no job
                }
                try (JobLists.Cursor lists = JobLists.open(c(), sql, descending, args)) {
                    int n = 0;
                    do {
                        sink.accept(JobRows.map(rs, lists.take(rs.getLong("id"))));
                        n++;
                    } while (rs.next());
                    return n;
                }
            }
        }
    }
}
