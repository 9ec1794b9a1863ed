package nvidb.core.api;

import java.util.List;
import java.util.Set;

/**
 * What a person does to jobs: submit, cancel, requeue, release, purge, and acknowledging the
 * alerts they raised. A job's state changes only by the moves of its lifecycle (an illegal one is a
 * conflict, exit 4); an operation that must not interleave with a scheduler pass waits for it.
 */
public interface JobCommands {
    record Submitted(Job job, boolean duplicate, TickSummary tick) {
    }

    Submitted submit(SubmitRequest r, TickMode after);

    /**
     * What a submit would make, with every check it makes, queueing nothing ({@code --dry-run}):
     * the reservation and where it came from ({@code vramSource}, stored JSON), the node and lane.
     */
    record Preview(long vramMb, String vramSource, String node, String lane, String submitter, int oomRetry) {
    }

    Preview preview(SubmitRequest r);

    /** One id's outcome; {@code state} is the job's state afterwards, null when there is no such job. */
    record Released(long id, boolean released, String reason, List<Long> dropped, String state) {
    }

    record ReleaseResult(List<Released> results, TickSummary tick) {
    }

    /** Releases each held job; an unknown id is reported in its result, not thrown, so the others still go. */
    ReleaseResult release(List<Long> ids, TickMode after);

    record Cancelled(long id, boolean cancelled, String state, List<Long> holds) {
    }

    /**
     * Cancels each job that is still pending or running. A running job's process is left to the
     * scheduler as a kill obligation (an orphan row) so the kill happens whether or not its node
     * answers now; nothing cascades: jobs waiting on a cancelled one are held on the next pass.
     */
    List<Cancelled> cancel(List<Long> ids);

    record Requeued(long id, boolean requeued, String state) {
    }

    record RequeueResult(List<Requeued> results, TickSummary tick) {
    }

    RequeueResult requeue(List<Long> ids, TickMode after);

    /** Deletes finished job records, except those an active job still depends on. */
    int purge(Set<JobState> states);

    /** One alert named by id: whether it exists, and whether this call acknowledged it (not already done). */
    record Acknowledged(long id, boolean found, boolean acknowledged) {
    }

    /** How many alerts this call acknowledged, and each named id's outcome (none for {@code all}). */
    record AckResult(int acknowledged, List<Acknowledged> results) {
        public AckResult {
            results = List.copyOf(results);
        }
    }

    /**
     * Acknowledges open alerts: every named one that exists (an unknown id is reported, not fatal;
     * an already acknowledged one is not counted), or every open one with {@code all}.
     */
    AckResult acknowledge(List<Long> ids, boolean all);
}
