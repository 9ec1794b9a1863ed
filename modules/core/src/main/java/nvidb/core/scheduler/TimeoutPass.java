package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.lifecycle.Moves;
import nvidb.core.store.Store;
import nvidb.core.util.BootClock;
import nvidb.core.util.Texts;
import nvidb.spi.transport.TransportException;

/**
 * Stops running jobs that overran their {@code --timeout}: the end of stderr goes into the alert,
 * then TERM (KILL after a grace period) to the job's process group. A node that cannot be reached
 * is owed the kill (an orphan row the refresh delivers later); the job is recorded timed out now.
 */
final class TimeoutPass {
    static final int TAIL_CHARS = 4000;

    private final Store store;
    private final JobLifecycle lifecycle;
    private final NodeKills kills;

    TimeoutPass(Store store, JobLifecycle lifecycle, NodeKills kills) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.kills = kills;
    }

    /**
     * How long {@code job} has run: on the boot clock when its start was stamped on it during this
     * boot, so that a wall clock set an hour forward or back neither kills every running job nor
     * lets them overrun; else (started before V008, on a host without one, or before a reboot)
     * from {@code started_at} by the wall clock.
     */
    static long runSeconds(Job job, BootClock start, Instant now, Optional<BootClock> clock) {
        if (start != null && clock.isPresent()) {
            OptionalLong ms = clock.get().since(start);
            if (ms.isPresent()) {
                return ms.getAsLong() / 1000;
            }
        }
        return Duration.between(job.startedAt(), now).getSeconds();
    }

    void run(TickSummary.Builder summary) {
        List<Job> running = store.db.read(() -> store.jobs.inStates(List.of(JobState.RUNNING)));
        Map<Long, BootClock> starts = store.db.read(store.jobs::runningStartClocks);
        Instant now = Instant.now();
        Optional<BootClock> clock = BootClock.now();
        for (Job job : running) {
            if (job.maxRuntimeS() == null || job.startedAt() == null
                    || runSeconds(job, starts.get(job.id()), now, clock) <= job.maxRuntimeS()) {
                continue;
            }
            String tail = null;
            String orphanReason = null;
            try {
                if (job.remotePid() != null && job.runDir() != null) {
                    tail = kills.tail(job.node(), job.runDir(), "stderr.log", 25);
                    kills.terminate(job.node(), job.runDir(), job.remotePid(), job.remotePgid());
                }
            } catch (TransportException e) {
                Interruption.check(); // the node was not unreachable: the next pass times the job out
                orphanReason = "timed out while unreachable";
            }
            Instant at = Times.now();
            Moves.Overrun overrun = new Moves.Overrun(job.maxRuntimeS(), null, at,
                    tail == null ? null : Texts.lastChars(tail, TAIL_CHARS), null, false, orphanReason);
            JobLifecycle.Applied done = JobLifecycle.ifStillLegal(() -> lifecycle.timeOut(job.id(), overrun, at));
            if (done != null) {
                summary.alert(done.alert());
                summary.finished(job.id(), JobState.TIMEOUT.label(), null);
            }
        }
    }
}
