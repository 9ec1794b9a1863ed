package nvidb.core.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Parameter sweeps: one submit makes many runs of one command, each an ordinary job with its
 * parameters substituted into the command and set in its environment; the sweep is then followed,
 * compared, cancelled, requeued and waited for as a whole.
 */
public interface Sweeps {
    /**
     * What {@code job sweep} asks for.
     *
     * @param template     every submit option, applied to every run; its command is unused, its
     *                     name is the runs' name stem, its idempotency key the sweep's
     * @param command      the command as typed: several words (each quoted as a whole after
     *                     substitution), or one shell string (each value substituted quoted)
     * @param grid         {@code name=v1,v2,…}, each one more dimension of the cross product
     * @param zip          {@code name=v1,v2,…}, paired element by element (same length)
     * @param random       how many random draws from {@code ranges}, or null
     * @param seed         the random draws' seed; null picks one (reported, so the sweep can be made again)
     * @param ranges       {@code name=uniform:A:B}, {@code loguniform:A:B}, {@code int:A:B}, {@code choice:x,y}
     * @param paramLines   the lines of a params file (one JSON object a line), or null
     * @param paramSource  where those lines came from, for error messages
     * @param maxParallel  at most this many runs running at once, or null for no limit
     * @param force        allow more than {@link #MAX_RUNS} runs
     */
    record SweepRequest(SubmitRequest template, List<String> command, List<String> grid, List<String> zip,
                        Integer random, Long seed, List<String> ranges, List<String> paramLines, String paramSource,
                        Integer maxParallel, boolean force) {
        public SweepRequest {
            command = List.copyOf(command);
            grid = grid == null ? List.of() : List.copyOf(grid);
            zip = zip == null ? List.of() : List.copyOf(zip);
            ranges = ranges == null ? List.of() : List.copyOf(ranges);
            paramLines = paramLines == null ? null : List.copyOf(paramLines);
        }
    }

    /** Without {@code --force}, a sweep makes at most this many runs. */
    int MAX_RUNS = 10_000;

    /** A sweep as stored. {@code spec} says how its runs were made (grid, zip, random and seed, file). */
    record Sweep(long id, String name, String command, List<String> params, Map<String, Object> spec,
                 Integer maxParallel, String submitter, String idempotencyKey, Instant createdAt) {
    }

    /** One run: its index in the sweep, its parameters, its job's name and command (and id once submitted). */
    record Run(int index, Map<String, String> params, String name, String command, Long jobId) {
    }

    /** What a submit did: the sweep (null for a dry run), its runs, and whether it was made before. */
    record Submitted(Sweep sweep, List<Run> runs, boolean duplicate, boolean dryRun, TickSummary tick) {
    }

    Submitted submit(SweepRequest r, boolean dryRun, TickMode after);

    /** A sweep with how many of its runs are in each state ({@code held} and {@code purged} included). */
    record Summary(Sweep sweep, int runs, Map<String, Integer> states) {
    }

    /** Every sweep, newest first. */
    List<Summary> list();

    /**
     * What {@code sweep show} says of a run's job, read without the rest of the job record.
     *
     * @param state {@link Job#displayState()} ({@code held} for a held job), or {@code purged}
     *              once the job is gone
     */
    record RunStatus(String state, Integer exitCode, Instant startedAt, Instant finishedAt, String progress,
                     String resultJson, Long vramMb, Integer peakVramMb, Double meanUtilPercent) {
        /** As {@link Job#elapsedSeconds}: start to finish, or to {@code now} while running; null before a start. */
        public Double elapsedSeconds(Instant now) {
            if (startedAt == null) {
                return null;
            }
            Instant end = finishedAt != null ? finishedAt : "running".equals(state) ? now : null;
            return end == null ? null : Math.max(0, java.time.Duration.between(startedAt, end).toMillis() / 1000.0);
        }
    }

    /**
     * One row of {@code sweep show}: the run, its job's status, and every numeric field of its
     * {@code result.json}, nested ones by dotted path ({@code eval.loss}).
     */
    record Row(Run run, RunStatus status, Map<String, Double> metrics) {
    }

    /**
     * @param metric  the best run first by this metric and marked {@code best}; null keeps index order
     * @param columns every metric name any run has, in first-seen order
     * @param best    the index of the best run, or null (no metric, or no run has it)
     */
    record Detail(Summary summary, List<Row> rows, List<String> columns, String metric, Integer best) {
    }

    /**
     * @param metric   the result field (dotted path) that picks the best run, shown first; null for none
     * @param maximize the best is the largest (else the smallest)
     * @param sort     every run in order of the metric, best first (else the others in index order)
     */
    Detail show(long id, String metric, boolean maximize, boolean sort);

    /** The sweep's job ids, by run index (purged ones left out): what {@code --after sweep:ID} waits for. */
    List<Long> jobIds(long id);

    /** Cancels every run still pending or running. */
    List<JobCommands.Cancelled> cancel(long id);

    /**
     * Requeues the runs that ended badly (failed, timeout, lost), and the cancelled ones too with
     * {@code cancelled}.
     */
    JobCommands.RequeueResult requeue(long id, boolean cancelled, TickMode after);
}
