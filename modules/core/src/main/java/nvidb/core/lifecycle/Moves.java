package nvidb.core.lifecycle;

import java.time.Instant;
import java.util.List;

/** The facts each move of {@link JobLifecycle} records, beyond the job's id and the time. */
public final class Moves {
    private Moves() {
    }

    /** Who started a job: the scheduler's own launch (which may adopt a process), or a lane runner. */
    public sealed interface Starter permits Launched, ByRunner {
    }

    /** @param adopted the launch found the attempt already running and adopted it */
    public record Launched(boolean adopted) implements Starter {
    }

    public record ByRunner(String lane) implements Starter {
    }

    /**
     * @param startedAt when the process started (the node's clock where it is credible)
     * @param attempt   the attempt number the run directory was made for
     */
    public record Start(Starter starter, String node, List<Integer> gpuIds, int pid, Integer pgid, String runDir,
                       Instant startedAt, int attempt) {
        public Start {
            gpuIds = List.copyOf(gpuIds);
        }
    }

    /**
     * What the job's directory said when it ended.
     *
     * @param result the stored JSON of {@code result.json}, or null to keep what a client set
     * @param tail   the end of its output, for the alert of a failure; may be null
     * @param status the last line of its status file when it changed, else null
     * @param oom    what its stderr said of running out of GPU memory, or null when it said nothing
     */
    public record Exit(int exitCode, Instant finishedAt, String result, String tail, String status, OutOfMemory oom) {
        public Exit(int exitCode, Instant finishedAt, String result, String tail, String status) {
            this(exitCode, finishedAt, result, tail, status, null);
        }
    }

    /**
     * A failed job's stderr held an out-of-memory signature.
     *
     * @param line      the line that held it
     * @param raiseToMb the reservation a retry would get (the scheduler's sizing), or null when
     *                  no GPU could hold more than the job has now
     * @param largestMb the most a GPU could hold for it, for the message when none could hold more
     */
    public record OutOfMemory(String line, Long raiseToMb, long largestMb) {
    }

    /**
     * A job stopped for overrunning {@code --timeout}.
     *
     * @param exitCode     the exit code the node recorded (a lane runner's kill), or null
     * @param byRunner     a lane runner stopped it, not the scheduler
     * @param orphanReason set when the kill could not be delivered: a kill obligation is recorded
     */
    public record Overrun(long limitSeconds, Integer exitCode, Instant finishedAt, String tail, String status,
                          boolean byRunner, String orphanReason) {
    }
}
