package nvidb.spi.batch;

import java.util.List;

/**
 * A node whose own scheduler places jobs (a Slurm partition): nvidb hands a job over with one
 * submission and learns its fate from the batch system, never by starting processes itself. Each
 * method returns POSIX sh that core runs through the node's transport (the batch system's login),
 * inside a script of its own, as the body of a function; core quotes its own values and the
 * plugin quotes its own. A transport factory offers one with
 * {@link nvidb.spi.transport.TransportFactory#batchScheduler}.
 */
public interface BatchScheduler {

    /** The batch system's name as people see it, e.g. {@code slurm}: reasons read "slurm: Resources". */
    String system();

    /** What this node may take: core's burst decision and {@code --vram} fit read it. */
    BatchLimits limits();

    /**
     * The body of a function that submits the job whose wrapper is {@code "$1/run.sh"} (its run
     * directory is {@code $1}; its stdout and stderr go to {@code $1/stdout.log} and
     * {@code $1/stderr.log}) and prints the batch system's id of the job, alone, on stdout. A
     * non-zero status means nothing was submitted; its stderr says why.
     */
    String submitFunction(BatchSubmission job);

    /**
     * The body of a function that prints, in one query of the batch system, the state of the
     * jobs {@code ids} and the node's capacity, for {@link #parsePoll}. Every call to the batch
     * system has a time limit: a dead controller must not hang a pass.
     */
    String pollFunction(List<String> ids);

    /**
     * Reads what {@link #pollFunction} printed.
     *
     * @throws IllegalStateException the answer says the node cannot be used (no such partition,
     *                               the controller does not answer); the message says why
     */
    BatchPoll parsePoll(String output);

    /** The body of a function that cancels the batch job whose id is {@code $1}. */
    String cancelFunction();
}
