package nvidb.core.view;

import nvidb.core.api.JobQueries;
import nvidb.core.api.JobState;

/**
 * What {@code job show --json} adds for a job a batch node (Slurm) holds or held: {@code reason}, why it
 * waits there (only while pending; null otherwise), and {@code batch}, its id and state there.
 */
public record BatchView(String reason, Handover batch) {

    /** The job's id, state and last reason on the batch node that holds it. */
    public record Handover(String node, String id, String state, String reason) {
    }

    /** Null when the job was never handed to a batch node, so the document carries neither key. */
    public static BatchView of(JobQueries.JobDetail detail) {
        JobQueries.BatchInfo b = detail.batch();
        if (b == null) {
            return null;
        }
        return new BatchView(detail.job().state() == JobState.PENDING ? b.reason() : null,
                new Handover(b.node(), b.id(), b.state(), b.reason()));
    }
}
