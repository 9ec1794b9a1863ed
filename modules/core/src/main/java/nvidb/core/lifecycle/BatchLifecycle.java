package nvidb.core.lifecycle;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.store.JobChanges;
import nvidb.core.store.Store;

/**
 * The moves of a job a batch node (Slurm) holds, beyond those of any job ({@link JobLifecycle}
 * starts, finishes, times out and loses it as on any node): handed over, waiting there with the
 * batch system's reason, cancelled or preempted there by someone else.
 */
public final class BatchLifecycle {
    private final Store store;

    public BatchLifecycle(Store store) {
        this.store = store;
    }

    /**
     * Records the hand-over: the job stays pending, placed on the batch node with the run
     * directory of the attempt submitted, and the batch system's id is kept.
     */
    public Job submitted(long id, String node, String runDir, String batchId, String system, boolean adopted,
                         Instant now) {
        return store.db.write(() -> {
            current(id, Transition.STAGE);
            store.jobs.update(id, new JobChanges().node(node).gpuIds(List.of()).runDir(runDir).lastError(null), now);
            store.batch.submitted(id, node, batchId, runDir, system + ": submitted", now);
            store.events.append(now, EventKind.JOB_BATCH_SUBMITTED, id, node, "handed to " + system + " as job "
                    + batchId, Map.of(system + "_job_id", batchId, "adopted", adopted));
            return reread(id);
        });
    }

    /** What the batch system said of the job at this pass (its state, and why it waits), when that changed. */
    public void said(long id, String state, String reason, Instant now) {
        store.db.write(() -> {
            store.batch.polled(id, state, reason, now);
            return null;
        });
    }

    /** Someone cancelled the job in the batch system itself: cancelled here too, saying so. */
    public Job cancelledThere(long id, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.CANCEL);
            store.jobs.update(id, new JobChanges().state(JobState.CANCELLED).finishedAt(now).lastError(reason), now);
            store.events.append(now, EventKind.JOB_CANCELLED, id, job.node(), reason, null);
            return reread(id);
        });
    }

    /**
     * The batch system preempted the job: it is pending again, as new, and the next pass submits
     * a fresh attempt. No retry is spent: the job did nothing wrong.
     */
    public Job preempted(long id, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.PREEMPT);
            store.jobs.update(id, new JobChanges().state(JobState.PENDING).node(null).gpuIds(List.of()).remotePid(null)
                    .remotePgid(null).runDir(null).startedAt(null).heartbeatAt(null)
                    .attempt(job.attempt() + (job.state() == JobState.RUNNING ? 0 : 1)).lastError(reason), now);
            store.batch.forget(id, now);
            store.events.append(now, EventKind.JOB_REQUEUED, id, job.node(), reason, null);
            return reread(id);
        });
    }

    private Job current(long id, Transition t) {
        Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
        if (!t.allows(job)) {
            throw NvidbException.conflict(t.refusal(job));
        }
        return job;
    }

    private Job reread(long id) {
        return store.jobs.find(id).orElseThrow();
    }
}
