package nvidb.core.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One job record, as stored. {@code resultJson} is the stored JSON text of the result (null when
 * none). Collections are never null.
 */
public record Job(
        long id,
        String name,
        JobState state,
        String command,
        String workdir,
        Map<String, String> env,
        int priority,
        int gpus,
        long vramMb,
        String nodeConstraint,
        List<Long> dependsOn,
        List<Long> dependsAny,
        Integer maxRuntimeS,
        String submitter,
        List<String> tags,
        Instant createdAt,
        Instant updatedAt,
        Instant startedAt,
        Instant finishedAt,
        String node,
        List<Integer> gpuIds,
        String lane,
        Long laneSeq,
        Integer remotePid,
        Integer remotePgid,
        String runDir,
        Integer exitCode,
        int attempt,
        int maxRetries,
        String lastError,
        Instant heartbeatAt,
        Integer gpuMemMb,
        String resultJson,
        String notes,
        String progress,
        Instant progressAt,
        String heldReason,
        String idempotencyKey,
        Learned learned,
        String user,
        String waitReason) {

    /**
     * What the queue measured and learned of the job (schema 10).
     *
     * @param peakVramMb    the largest per-GPU memory any pass saw its processes hold, or null
     * @param utilSum       the sum of its GPUs' utilisation over {@code utilSamples} looks
     * @param idleSince     since when its GPUs have stayed at or under {@code queue.idle_util}, or null
     * @param overrunAt     when its use was first seen beyond its reservation and margin, or null
     * @param idleAlertedAt when its idle alert was raised, or null
     * @param vramSource    where its reservation came from, as stored JSON ({@code {"kind": ...}}), or null
     * @param failure       why it failed when that is known ({@code oom}, {@code killed}), or null
     * @param oomRetry      how many times it may be requeued bigger after running out of GPU memory
     * @param oomRetries    how many times it was
     */
    public record Learned(Integer peakVramMb, double utilSum, int utilSamples, Instant idleSince, Instant overrunAt,
                          Instant idleAlertedAt, String vramSource, String failure, int oomRetry, int oomRetries) {
        public static final Learned NONE = new Learned(null, 0, 0, null, null, null, null, null, 0, 0);

        /** The mean of its GPUs' utilisation while it ran, to a tenth of a percent, or null before a look. */
        public Double meanUtilPercent() {
            return utilSamples == 0 ? null : Math.round(utilSum / utilSamples * 10) / 10.0;
        }
    }

    // The two orders are written out rather than built with Comparator.comparing(...).thenComparing:
    // the lambdas inside those JDK methods are made at run time, on every start (the AOT cache
    // holds nvidb's own lambdas, not those), in each command that reads a job (a rule:
    // StartupRules.NO_COMPARATOR_COMBINATORS_ON_EVERY_COMMANDS_PATH).

    /** Lane running order: {@code lane_seq} (none last), then id. */
    public static final java.util.Comparator<Job> LANE_ORDER = (a, b) -> {
        int bySeq = Long.compare(a.laneSeq() == null ? Long.MAX_VALUE : a.laneSeq(),
                b.laneSeq() == null ? Long.MAX_VALUE : b.laneSeq());
        return bySeq != 0 ? bySeq : Long.compare(a.id(), b.id());
    };

    /**
     * The free pool's dispatch order: higher priority first, then earlier submission. The
     * scheduler's pass and every view of "what starts next" (the TUI's job table) share it.
     */
    public static final java.util.Comparator<Job> DISPATCH_ORDER = (a, b) -> {
        int byPriority = Integer.compare(b.priority(), a.priority());
        return byPriority != 0 ? byPriority : Long.compare(a.id(), b.id());
    };

    /**
     * The free pool's order under fair share: the smaller factor ({@link UserStanding#factor}) of the
     * job's user first, then {@link #DISPATCH_ORDER}. The pass and the TUI's "what starts next" share it.
     */
    public static java.util.Comparator<Job> fairShareOrder(java.util.function.ToDoubleFunction<Job> factor) {
        return (a, b) -> {
            int byFactor = Double.compare(factor.applyAsDouble(a), factor.applyAsDouble(b));
            return byFactor != 0 ? byFactor : DISPATCH_ORDER.compare(a, b);
        };
    }

    /** A job of which nothing was measured or learned yet. */
    public Job(long id, String name, JobState state, String command, String workdir, Map<String, String> env,
               int priority, int gpus, long vramMb, String nodeConstraint, List<Long> dependsOn, List<Long> dependsAny,
               Integer maxRuntimeS, String submitter, List<String> tags, Instant createdAt, Instant updatedAt,
               Instant startedAt, Instant finishedAt, String node, List<Integer> gpuIds, String lane, Long laneSeq,
               Integer remotePid, Integer remotePgid, String runDir, Integer exitCode, int attempt, int maxRetries,
               String lastError, Instant heartbeatAt, Integer gpuMemMb, String resultJson, String notes,
               String progress, Instant progressAt, String heldReason, String idempotencyKey) {
        this(id, name, state, command, workdir, env, priority, gpus, vramMb, nodeConstraint, dependsOn, dependsAny,
                maxRuntimeS, submitter, tags, createdAt, updatedAt, startedAt, finishedAt, node, gpuIds, lane, laneSeq,
                remotePid, remotePgid, runDir, exitCode, attempt, maxRetries, lastError, heartbeatAt, gpuMemMb,
                resultJson, notes, progress, progressAt, heldReason, idempotencyKey, Learned.NONE, null, null);
    }

    public Job {
        Objects.requireNonNull(state, "state");
        learned = learned == null ? Learned.NONE : learned;
        Objects.requireNonNull(command, "command");
        name = name == null ? "" : name;
        env = env == null ? Map.of() : env;
        dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
        dependsAny = dependsAny == null ? List.of() : List.copyOf(dependsAny);
        tags = tags == null ? List.of() : List.copyOf(tags);
        gpuIds = gpuIds == null ? List.of() : List.copyOf(gpuIds);
    }

    public boolean held() {
        return state == JobState.PENDING && heldReason != null && !heldReason.isEmpty();
    }

    /** Why the last pass left this pending job waiting, when a rule held it; null for any other job. */
    public String waiting() {
        return state == JobState.PENDING && !held() ? waitReason : null;
    }

    /** "held" for held jobs, else the state's label: what people see. */
    public String displayState() {
        return held() ? "held" : state.label();
    }

    /** Seconds from start to finish, or to {@code now} while running; null before a start. */
    public Double elapsedSeconds(Instant now) {
        if (startedAt == null) {
            return null;
        }
        Instant end = finishedAt != null ? finishedAt : (state == JobState.RUNNING ? now : null);
        if (end == null) {
            return null;
        }
        return Math.max(0, Duration.between(startedAt, end).toMillis() / 1000.0);
    }
}
