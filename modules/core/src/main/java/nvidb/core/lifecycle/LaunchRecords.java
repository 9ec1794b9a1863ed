package nvidb.core.lifecycle;

import java.time.Instant;
import java.util.Objects;
import nvidb.core.api.AlertKind;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.TickSummary.AlertRef;
import nvidb.core.store.JobChanges;
import nvidb.core.store.Store;
import nvidb.core.util.Texts;

/**
 * What a launch leaves on the record that is no move of the job's state ({@link JobLifecycle}
 * makes those): whether a job runs from a run directory, a kill a node owes, a launch that failed.
 */
public final class LaunchRecords {
    private final Store store;

    LaunchRecords(Store store) {
        this.store = store;
    }

    /** Whether the job is recorded as running from this run directory. */
    public boolean runsIn(long id, String runDir) {
        return store.db.read(() -> store.jobs.find(id))
                .filter(j -> j.state() == JobState.RUNNING && Objects.equals(runDir, j.runDir())).isPresent();
    }

    /**
     * A process was started for a job that is no longer waiting for one (cancelled while its
     * launch was on the wire) and could not be stopped: the node owes it a kill.
     */
    public void owesKill(long id, String node, String runDir, int pid, Integer pgid, String reason, Instant now) {
        store.db.write(() -> {
            store.orphans().add(id, node, runDir, pid, pgid, reason, now);
            return null;
        });
    }

    /**
     * A launch that did not start the job: it stays pending with the error, and one alert is
     * raised per persistent fault (a repeat of the last error is not raised again).
     *
     * @return the alert, or null when the error is the one already recorded
     */
    public AlertRef launchFailed(long id, String message, String errors, Instant now) {
        return store.db.write(() -> {
            Job job = store.jobs.find(id).orElse(null);
            if (job == null || job.state() != JobState.PENDING || message.equals(job.lastError())) {
                return null;
            }
            store.jobs.update(id, new JobChanges().lastError(message), now);
            store.events.append(now, EventKind.JOB_FAILED, id, null, message, null);
            String title = JobLifecycle.label(job) + " could not be started: " + Texts.truncate(errors, 120);
            return JobLifecycle.raise(store, now, AlertKind.LAUNCH_FAILED, job, null, title, message);
        });
    }
}
