package nvidb.core.lifecycle;

import java.util.EnumSet;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;

/**
 * Every way a job's record may change state, with the states it may start from. This table is
 * the one place that says which moves are legal; {@link JobLifecycle} refuses every other move.
 * Moves within {@code pending} (stage, hold, release) change what a pass may do with the job.
 */
public enum Transition {
    /** A new record: there is no state before it. */
    SUBMIT("submitted", Set.of()),
    /**
     * A job is handed over before it is known to run: a lane job's spec to its runner (it gets
     * its run directory), a pool job to the node its launch goes to (it gets its place).
     */
    STAGE("staged", EnumSet.of(JobState.PENDING)),
    /** A staged job is taken back: it forgets its run directory, or its place. */
    UNSTAGE("taken back", EnumSet.of(JobState.PENDING)),
    START("started", EnumSet.of(JobState.PENDING)),
    /** The job's own exit code is known: completed (0) or failed. */
    FINISH("finished", EnumSet.of(JobState.RUNNING)),
    /** A job that can never run anywhere fails before it starts. */
    REJECT("rejected as unschedulable", EnumSet.of(JobState.PENDING)),
    LOSE("recorded lost", EnumSet.of(JobState.RUNNING)),
    TIME_OUT("timed out", EnumSet.of(JobState.RUNNING)),
    CANCEL("cancelled", EnumSet.of(JobState.PENDING, JobState.RUNNING)),
    /** A person runs a finished job again. */
    REQUEUE("requeued", EnumSet.of(JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED, JobState.TIMEOUT,
            JobState.LOST)),
    /** A person deletes a finished job's record ({@code job purge}); see {@link Purge}. */
    PURGE("purged", EnumSet.of(JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED, JobState.TIMEOUT,
            JobState.LOST)),
    /** A batch system (Slurm) preempted the job: it waits again, without spending a retry. */
    PREEMPT("sent back to waiting", EnumSet.of(JobState.PENDING, JobState.RUNNING)),
    /**
     * A job that ran out of GPU memory waits again, with a larger reservation, while it has
     * {@code --oom-retry} retries left (its {@code --retries} are not spent).
     */
    OOM_RETRY("requeued with more GPU memory", EnumSet.of(JobState.RUNNING)),
    /** A running job whose process vanished goes back to pending while it has retries left. */
    RETRY("retried", EnumSet.of(JobState.RUNNING)),
    HOLD("held", EnumSet.of(JobState.PENDING)),
    /** A hold ends: a person released it, or the reason went away. */
    RELEASE("released", EnumSet.of(JobState.PENDING));

    private final String done;
    private final Set<JobState> from;

    Transition(String done, Set<JobState> from) {
        this.done = done;
        this.from = from;
    }

    /** The states this move may start from; empty for {@link #SUBMIT}, which starts from none. */
    public Set<JobState> from() {
        return from;
    }

    public boolean allows(JobState state) {
        return from.contains(state);
    }

    /**
     * Whether the move is legal for the job as it is now. A held job is never handed to a runner;
     * it may still be recorded started, since a runner may have started it before the hold.
     */
    public boolean allows(Job job) {
        return allows(job.state()) && !(this == STAGE && job.held());
    }

    /** The reason a user reads when the move is refused. */
    String refusal(Job job) {
        String now = job.held() ? "held (" + job.heldReason() + ")" : job.state().label();
        return "job " + job.id() + " is " + now + "; it cannot be " + done;
    }
}
