package nvidb.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.Json;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.lifecycle.Moves;
import nvidb.core.node.NodeReport;
import nvidb.core.store.Store;
import nvidb.core.util.Texts;

/**
 * Applies what one reached node's job directories say: a staged lane job the runner started
 * becomes running; a job with an exit code finishes (or timed out, when a runner stopped it); a
 * live one gets its heartbeat and status line; a vanished one is retried or lost.
 */
final class SettlePass {
    private final Store store;
    private final JobLifecycle lifecycle;
    private final Launcher launcher;
    /** Sizes the retry of a job that ran out of GPU memory; null never retries one (tests of other moves). */
    private final VramSizing sizing;

    SettlePass(Store store, JobLifecycle lifecycle, Launcher launcher) {
        this(store, lifecycle, launcher, null);
    }

    SettlePass(Store store, JobLifecycle lifecycle, Launcher launcher, VramSizing sizing) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.launcher = launcher;
        this.sizing = sizing;
    }

    /** Settles the observed node's jobs; returns those that still run there. */
    List<Job> run(Observation.Reached o, Map<String, LaneRecord> lanes, TickSummary.Builder summary) {
        Instant now = Times.now();
        List<Job> stillRunning = new ArrayList<>();
        for (Job job : o.staged()) {
            NodeReport.JobDirState dir = o.report().jobs().get(job.id());
            if (dir == null || (dir.exitCode() == null && !dir.alive())) {
                continue; // not started yet, which is normal for a staged job
            }
            Long started = dir.startedAt() != null ? dir.startedAt() : dir.finishedAt();
            Job begun = launcher.runnerStarted(job, lanes.get(job.lane()), dir.pid(), dir.session() ? dir.pgid() : null,
                    started == null ? 0 : started, job.runDir(), summary);
            if (begun != null && !settle(begun, dir, now, summary)) {
                stillRunning.add(reread(begun));
            }
        }
        for (Job job : o.running()) {
            NodeReport.JobDirState dir = o.report().jobs().get(job.id());
            if (dir == null) {
                stillRunning.add(job);
            } else if (!settle(job, dir, now, summary)) {
                stillRunning.add(reread(job));
            }
        }
        return stillRunning;
    }

    private Job reread(Job job) {
        return store.db.read(() -> store.jobs.find(job.id())).orElse(job);
    }

    /** Returns true when the job left the running state (ended, or back to pending for a retry). */
    private boolean settle(Job job, NodeReport.JobDirState dir, Instant now, TickSummary.Builder summary) {
        return store.db.write(() -> {
            Job current = store.jobs.find(job.id()).orElse(null);
            if (current == null || current.state() != JobState.RUNNING) {
                return true; // cancelled or settled by another client meanwhile
            }
            // A runner's kill may take run.sh down before it records the exit code; its timed_out mark still says why.
            if (dir.exitCode() != null || (dir.timedOutAfter() != null && !dir.alive())) {
                ended(current, dir, now, summary);
                return true;
            }
            if (!dir.alive()) {
                JobLifecycle.Applied moved = lifecycle.vanished(current.id(), now);
                summary.alert(moved.alert());
                summary.finished(current.id(), moved.job().state().label(), null);
                return true;
            }
            store.jobs.heartbeat(current.id(), changed(dir.status(), current.progress()),
                    changed(dir.pid(), current.remotePid()), now);
            return false;
        });
    }

    void ended(Job job, NodeReport.JobDirState dir, Instant now, TickSummary.Builder summary) {
        Instant finished = nodeTime(dir.finishedAt(), now);
        String tail = dir.outputTail() == null ? null : Texts.lastChars(dir.outputTail(), TimeoutPass.TAIL_CHARS);
        if (dir.timedOutAfter() != null) {
            // A lane runner stopped it for overrunning: recorded as the controller records its own timeouts.
            Moves.Overrun o = new Moves.Overrun(dir.timedOutAfter(), dir.exitCode(), finished, tail, dir.status(), true,
                    null);
            summary.alert(lifecycle.timeOut(job.id(), o, now).alert());
            summary.finished(job.id(), JobState.TIMEOUT.label(), dir.exitCode());
            return;
        }
        Moves.OutOfMemory oom = dir.oomLine() == null || dir.exitCode() == 0 ? null
                : sizing != null ? sizing.outOfMemory(job, dir.oomLine()) : new Moves.OutOfMemory(dir.oomLine(), null, 0);
        Moves.Exit exit = new Moves.Exit(dir.exitCode(), finished, resultJson(dir.result()), tail, dir.status(), oom);
        JobLifecycle.Applied done = lifecycle.finish(job.id(), exit, now);
        summary.finished(job.id(), done.job().state().label(), dir.exitCode());
        summary.alert(done.alert());
    }

    /** result.json's text as stored JSON: empty is none, text that is not JSON is kept as {"raw": …}. */
    static String resultJson(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Json.write(Json.readTree(text));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return Json.write(Map.of("raw", Texts.lastChars(text, TimeoutPass.TAIL_CHARS)));
        }
    }

    /** A node's clock reading, unless it is absurd (unset, or a day away from ours). */
    static Instant nodeTime(Long epoch, Instant now) {
        if (epoch == null || epoch <= 0 || Math.abs(epoch - now.getEpochSecond()) > 86_400) {
            return now;
        }
        return Instant.ofEpochSecond(epoch);
    }

    /** What a job's directory says now, where it differs from the record ({@code was}); else null. */
    static <T> T changed(T seen, T was) {
        return seen != null && !seen.equals(was) ? seen : null;
    }
}
