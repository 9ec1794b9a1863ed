package nvidb.spi.batch;

import java.util.List;

/**
 * The scheduler of a batch node (a Slurm partition): nvidb hands a job over with one submission
 * and learns its fate from the batch system, never by starting processes itself. Each method
 * returns POSIX sh that core runs on the batch system's login host, through the transport it
 * opened there ({@link BatchSchedulerFactory}), inside a script of its own, as the body of a
 * function: so a pass still costs one round trip per node, and core keeps the run directory,
 * the adoption of an earlier submission and the job's files to itself. Core quotes its own values
 * and the plugin quotes its own. {@link BatchSchedulerFactory#create} makes one per node.
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
