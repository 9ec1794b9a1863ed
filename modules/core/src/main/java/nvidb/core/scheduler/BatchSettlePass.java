package nvidb.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lifecycle.BatchLifecycle;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.lifecycle.Moves;
import nvidb.core.node.NodeReport;
import nvidb.core.store.BatchRepository.BatchJob;
import nvidb.core.store.Store;
import nvidb.core.util.Texts;
import nvidb.spi.batch.BatchJobState;
import nvidb.spi.batch.BatchPhase;

/**
 * Applies what one reached batch node said of the jobs it holds for nvidb: the job's own files
 * first (exit code, result, status), the batch system's word second. A job it still keeps
 * waiting stays pending with its reason; one it runs is running; one it stopped from outside
 * (time limit, someone's scancel, a failed node, preemption) ends as that says, whatever exit code
 * its wrapper wrote on the way out.
 */
final class BatchSettlePass {
    private final Store store;
    private final JobLifecycle lifecycle;
    private final BatchLifecycle batch;
    private final SettlePass settle;

    BatchSettlePass(Store store, JobLifecycle lifecycle, BatchLifecycle batch, SettlePass settle) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.batch = batch;
        this.settle = settle;
    }

    /** Settles the observed batch node's jobs; returns those that still run there. */
    List<Job> run(Observation.BatchReached o, TickSummary.Builder summary) {
        String system = o.scheduler().system();
        Map<Long, BatchJob> rows = store.db.read(store.batch::active);
        List<Job> stillRunning = new ArrayList<>();
        for (Job job : concat(o.staged(), o.running())) {
            BatchJob row = rows.get(job.id());
            BatchJobState there = row == null || row.batchId() == null ? null : o.poll().jobs().get(row.batchId());
            NodeReport.JobDirState dir = o.report().jobs().get(job.id());
            Job now = JobLifecycle.ifStillLegal(() -> settle(job, row, there, dir, system, summary));
            if (now != null && now.state() == JobState.RUNNING) {
                stillRunning.add(now);
            }
        }
        return stillRunning;
    }

    private static List<Job> concat(List<Job> a, List<Job> b) {
        List<Job> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Returns the job as it is after this pass. */
    private Job settle(Job job, BatchJob row, BatchJobState there, NodeReport.JobDirState dir, String system,
                       TickSummary.Builder summary) {
        Instant now = Times.now();
        BatchPhase phase = there == null ? null : there.phase();
        Integer rc = dir == null ? null : dir.exitCode();
        String word = there == null ? null : system + ": " + there.state()
                + (there.reason() == null ? "" : " (" + there.reason() + ")");
        if (phase == BatchPhase.CANCELLED) {
            Job cancelled = batch.cancelledThere(job.id(), "cancelled in " + system + " by someone else ("
                    + Objects.requireNonNullElse(there.reason(), there.state()) + ")", now);
            summary.finished(job.id(), cancelled.state().label(), rc);
            return cancelled;
        }
        if (phase == BatchPhase.PREEMPTED) {
            return batch.preempted(job.id(), "preempted in " + system + "; waiting again", now);
        }
        if (phase == BatchPhase.TIMED_OUT) {
            Job running = started(job, dir, summary);
            long limit = running.maxRuntimeS() == null ? 0 : running.maxRuntimeS();
            Moves.Overrun overrun = new Moves.Overrun(limit, rc, SettlePass.nodeTime(dir == null ? null : dir.finishedAt(),
                    now), dir == null || dir.outputTail() == null ? null : Texts.lastChars(dir.outputTail(),
                    TimeoutPass.TAIL_CHARS), dir == null ? null : dir.status(), false, null);
            JobLifecycle.Applied done = lifecycle.timeOut(job.id(), overrun, now);
            summary.alert(done.alert());
            summary.finished(job.id(), JobState.TIMEOUT.label(), rc);
            return done.job();
        }
        if (phase == BatchPhase.NODE_FAILED || (rc == null && (phase == null || phase == BatchPhase.ENDED))) {
            // Gone without an exit code: its node failed, or it left the batch system without a trace.
            started(job, dir, summary);
            JobLifecycle.Applied moved = lifecycle.vanished(job.id(), now);
            summary.alert(moved.alert());
            summary.finished(job.id(), moved.job().state().label(), null);
            store.db.write(() -> {
                store.batch.polled(job.id(), there == null ? "GONE" : there.state(), word, now);
                return null;
            });
            return moved.job();
        }
        if (rc != null) {
            if (signalled(rc) && phase == BatchPhase.RUNNING) {
                return job; // stopped by a signal the batch system has not explained yet: its word comes next pass
            }
            Job running = started(job, dir, summary);
            settle.ended(running, dir, now, summary);
            batch.said(job.id(), there == null ? "GONE" : there.state(), null, now);
            return store.db.read(() -> store.jobs.find(job.id())).orElse(running);
        }
        if (phase == BatchPhase.QUEUED) {
            String reason = system + ": " + (there.reason() == null || there.reason().equals("None")
                    ? there.state() : there.reason());
            if (row != null && !reason.equals(row.reason())) {
                batch.said(job.id(), there.state(), reason, now);
            }
            return job;
        }
        // Running there.
        Job running = started(job, dir, summary);
        if (row != null && !Objects.equals(there.state(), row.state())) {
            batch.said(job.id(), there.state(), null, now);
        }
        heartbeat(running, dir, now);
        return running;
    }

    /** A job still pending here is recorded started (the batch system ran it since the last pass). */
    private Job started(Job job, NodeReport.JobDirState dir, TickSummary.Builder summary) {
        if (job.state() == JobState.RUNNING) {
            return job;
        }
        Instant now = Times.now();
        int pid = dir != null && dir.pid() != null ? dir.pid() : 0; // 0: on a machine nvidb does not see
        Long startedAt = dir == null ? null : dir.startedAt();
        Moves.Start start = new Moves.Start(new Moves.Launched(false), job.node(), List.of(), pid, null, job.runDir(),
                SettlePass.nodeTime(startedAt, now), job.attempt() + 1);
        Job running = lifecycle.start(job.id(), start, now).job();
        summary.dispatched(new TickSummary.Dispatched(job.id(), job.node(), List.of(), null));
        return running;
    }

    private void heartbeat(Job job, NodeReport.JobDirState dir, Instant now) {
        String progress = dir == null ? null : SettlePass.changed(dir.status(), job.progress());
        Integer pid = dir == null ? null : SettlePass.changed(dir.pid(), job.remotePid());
        store.db.write(() -> {
            store.jobs.heartbeat(job.id(), progress, pid, now);
            return null;
        });
    }

    /** The exit status a wrapper records when it is stopped by TERM or INT. */
    private static boolean signalled(int rc) {
        return rc == 143 || rc == 130;
    }
}
