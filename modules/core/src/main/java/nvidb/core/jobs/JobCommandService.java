package nvidb.core.jobs;

import static nvidb.core.operation.ServiceContext.csv;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lanes.LaneRunnerService;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.lifecycle.Moves;
import nvidb.core.lifecycle.Purge;
import nvidb.core.lifecycle.Transition;
import nvidb.core.operation.OperationLease;
import nvidb.core.operation.ServiceContext;
import nvidb.core.scheduler.NodeKills;
import nvidb.core.store.Store;
import nvidb.spi.transport.TransportException;

/**
 * What a person does to jobs: submit, cancel, requeue, release, purge, and acknowledging the
 * alerts they raised. Every state change goes through {@link JobLifecycle} (a purge through its
 * neighbour {@link Purge}); an operation that must not interleave with a scheduler pass runs
 * under the {@link OperationLease}.
 */
public final class JobCommandService implements JobCommands {
    private final ServiceContext ctx;
    private final Store store;
    private final JobLifecycle lifecycle;
    private final NodeKills kills;
    private final OperationLease lease;
    private final LaneRunnerService runners;
    private final Submission submission;
    private final Purge purges;

    public JobCommandService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.lifecycle = ctx.lifecycle();
        this.kills = ctx.kills();
        this.lease = ctx.lease();
        this.runners = new LaneRunnerService(ctx);
        this.submission = new Submission(ctx);
        this.purges = new Purge(store);
    }

    @Override
    public Submitted submit(SubmitRequest r, TickMode after) {
        Submission.check(r, true);
        Submitted created = store.db.write(() -> {
            if (r.idempotencyKey() != null) {
                Optional<Job> existing = store.jobs.findByIdempotencyKey(r.idempotencyKey());
                if (existing.isPresent()) {
                    return new Submitted(existing.get(), true, null);
                }
            }
            Submission.Prepared prepared = submission.prepare(r);
            submission.admit(prepared, 1);
            long id = submission.insert(prepared, r.name(), r.command(), Map.of(), r.at(), r.idempotencyKey());
            return new Submitted(store.jobs.find(id).orElseThrow(), false, null);
        });
        if (created.duplicate()) {
            return new Submitted(created.job(), true, TickSummary.disabled());
        }
        TickSummary tick = ctx.tick(after == TickMode.AUTO ? TickMode.FORCE : after);
        return new Submitted(ctx.job(created.job().id()), false, tick);
    }

    @Override
    public Preview preview(SubmitRequest r) {
        Submission.check(r, true);
        Preview[] seen = new Preview[1];
        try {
            store.db.write(() -> {
                Submission.Prepared p = submission.prepare(r); // may create a lane: rolled back below
                Submission.Sized sized = submission.size(p, r.name(), r.command(), null);
                seen[0] = new Preview(sized.vramMb(), sized.sizing().vramSource(), p.node(), p.lane(), p.submitter(),
                        p.oomRetry());
                throw new NothingKept();
            });
        } catch (NothingKept expected) {
            // rolled back: a preview writes nothing
        }
        return seen[0];
    }

    /** Ends a preview's transaction, so that it rolls back. */
    private static final class NothingKept extends RuntimeException {
        NothingKept() {
            super(null, null, false, false);
        }
    }

    @Override
    public ReleaseResult release(List<Long> ids, TickMode after) {
        List<Released> results = new ArrayList<>();
        for (long id : ids) {
            results.add(store.db.write(() -> releaseOne(id)));
        }
        boolean any = results.stream().anyMatch(Released::released);
        return new ReleaseResult(results, any ? ctx.tick(after == TickMode.AUTO ? TickMode.FORCE : after) : TickSummary.disabled());
    }

    private Released releaseOne(long id) {
        Optional<Job> found = store.jobs.find(id);
        if (found.isEmpty()) {
            return new Released(id, false, "job " + id + " not found", List.of(), null);
        }
        Job job = found.get();
        String state = job.state().label();
        if (job.state().terminal()) {
            return new Released(id, false, "job " + id + " already finished as " + state, List.of(), state);
        }
        List<Long> dead = new ArrayList<>();
        Map<Long, Job> deps = new LinkedHashMap<>();
        store.jobs.byIds(job.dependsOn()).forEach(d -> deps.put(d.id(), d));
        for (long dep : job.dependsOn()) {
            Job d = deps.get(dep);
            if ((d == null || (d.state().terminal() && d.state() != JobState.COMPLETED)) && !dead.contains(dep)) {
                dead.add(dep);
            }
        }
        if (dead.isEmpty() && !job.held()) {
            return new Released(id, false, "job " + id + " is not held", List.of(), state);
        }
        String reason = dead.isEmpty() ? "released" : "released; dropped dependency " + csv(dead).replace(",", ", ");
        lifecycle.release(id, dead, reason, Times.now());
        return new Released(id, true, reason, dead, state);
    }

    @Override
    public List<Cancelled> cancel(List<Long> ids) {
        boolean[] withdrawn = {false};
        List<Cancelled> results = lease.run("cancel", () -> {
            // Jobs that only wait (pending, handed to no runner or batch node: nothing to stop) are
            // cancelled in one transaction: one commit instead of one each (a sweep of 1,000 runs
            // took 4.6 s). The others each stop what runs first, then commit, as cancelOne says.
            Cancelled[] out = new Cancelled[ids.size()];
            store.db.write(() -> {
                for (int i = 0; i < ids.size(); i++) {
                    Job current = store.jobs.find(ids.get(i)).orElse(null);
                    if (current != null && current.state() == JobState.PENDING && current.runDir() == null) {
                        out[i] = cancelInTransaction(ids.get(i), current, null);
                    }
                }
                return null;
            });
            for (int i = 0; i < ids.size(); i++) {
                if (out[i] == null) {
                    out[i] = cancelOne(ids.get(i), withdrawn);
                }
            }
            return List.of(out);
        });
        if (withdrawn[0]) {
            ctx.tick(TickMode.FORCE); // the runner gets the lane's new head now, so the lane moves on at once
        }
        return results;
    }

    /** @param withdrawn set when a job staged with a lane runner was taken back from it */
    private Cancelled cancelOne(long id, boolean[] withdrawn) {
        Optional<Job> found = store.db.read(() -> store.jobs.find(id));
        if (found.isEmpty()) {
            return new Cancelled(id, false, null, List.of());
        }
        Job job = found.get();
        if (job.state().terminal()) {
            return new Cancelled(id, false, job.state().label(), List.of());
        }
        if (job.state() == JobState.PENDING && job.lane() != null && job.runDir() != null) {
            withdrawn[0] = true;
            LaneRunnerService.Withdrawn w = takeBackFromRunner(job);
            if (w != null && w.exitCode() != null) {
                // The runner ran it to the end first: its outcome stands, and the pass after this
                // command records it from the job's directory (exit code, result, output).
                return new Cancelled(id, false, w.exitCode() == 0 ? JobState.COMPLETED.label()
                        : JobState.FAILED.label(), List.of());
            }
            job = store.db.read(() -> store.jobs.find(id)).orElse(job);
        }
        // The kill goes out before the transaction: a node that is slow to answer must not hold the write lock.
        String orphanReason = null;
        if (job.state() == JobState.RUNNING && job.node() != null && job.remotePid() != null && job.runDir() != null) {
            try {
                kills.terminate(job.node(), job.runDir(), job.remotePid(), job.remotePgid());
            } catch (TransportException e) {
                orphanReason = "cancelled while unreachable";
            }
        } else if (job.state() == JobState.PENDING && job.lane() == null && job.node() != null && job.runDir() != null) {
            // A pool job that waits with a run directory is held by a batch node (Slurm): scancel, or owe it.
            try {
                kills.terminate(job.node(), job.runDir(), 0, null);
            } catch (TransportException e) {
                lifecycle.launches().owesKill(id, job.node(), job.runDir(), 0, null, "cancelled while unreachable", Times.now());
            }
        }
        String reason = orphanReason;
        return store.db.write(() -> cancelInTransaction(id, store.jobs.find(id).orElse(null), reason));
    }

    /** The cancel itself, inside the caller's transaction: {@code current}, read in it, decides. */
    private Cancelled cancelInTransaction(long id, Job current, String orphanReason) {
        if (current == null || !Transition.CANCEL.allows(current)) {
            return new Cancelled(id, false, current == null ? null : current.state().label(), List.of());
        }
        List<Long> holds = store.jobs.waitingOn(id).stream().map(Job::id).toList();
        lifecycle.cancel(id, orphanReason, Times.now());
        return new Cancelled(id, true, JobState.CANCELLED.label(), holds);
    }

    /**
     * A staged job is taken back from its lane's runner before it is cancelled. When the runner
     * had already started it, its start is recorded first, so that it is cancelled as the running
     * job it is: stopped, with its run (pid, node, start time, events) kept on the record. Returns
     * what the runner had done, or null when the node could not be reached: that is left to the
     * next pass, which reaps whatever the runner says it started for a cancelled job.
     */
    private LaneRunnerService.Withdrawn takeBackFromRunner(Job job) {
        try {
            LaneRunnerService.Withdrawn w = runners.withdraw(job);
            if (w != null && w.startedPid() != null) {
                List<Integer> gpus = store.db.read(() -> store.lanes.find(job.lane())).map(LaneRecord::gpuIds)
                        .orElse(job.gpuIds());
                Instant now = Times.now();
                Moves.Start start = new Moves.Start(new Moves.ByRunner(job.lane()), w.node(), gpus, w.startedPid(),
                        w.startedPid(), job.runDir(), now, job.attempt() + 1);
                JobLifecycle.ifStillLegal(() -> lifecycle.start(job.id(), start, now));
            }
            return w;
        } catch (TransportException e) {
            return null; // cancelled as a pending job; the next pass withdraws the spec or reaps what was started
        }
    }

    @Override
    public RequeueResult requeue(List<Long> ids, TickMode after) {
        // One transaction for them all: one commit, not one a job (a sweep's 1,000 failed runs).
        List<Requeued> results = lease.run("requeue", () -> store.db.write(() -> {
            List<Requeued> out = new ArrayList<>();
            for (long id : ids) {
                out.add(requeueOne(id));
            }
            return out;
        }));
        boolean any = results.stream().anyMatch(Requeued::requeued);
        return new RequeueResult(results, any ? ctx.tick(after == TickMode.AUTO ? TickMode.FORCE : after) : TickSummary.disabled());
    }

    private Requeued requeueOne(long id) {
        Optional<Job> found = store.jobs.find(id);
        if (found.isEmpty()) {
            return new Requeued(id, false, null);
        }
        Job job = found.get();
        if (!job.state().terminal()) {
            return new Requeued(id, false, job.state().label());
        }
        lifecycle.requeue(id, Times.now());
        return new Requeued(id, true, JobState.PENDING.label());
    }

    @Override
    public int purge(Set<JobState> states) {
        Set<JobState> wanted = states.isEmpty() ? Transition.PURGE.from() : states;
        for (JobState s : wanted) {
            if (!Transition.PURGE.allows(s)) {
                throw NvidbException.usage("--state " + s.label() + " is not a finished state; purge removes only "
                        + "completed, failed, cancelled, timeout or lost jobs");
            }
        }
        return purges.finished(wanted, Times.now()).size();
    }

    @Override
    public AckResult acknowledge(List<Long> ids, boolean all) {
        if (!all && ids.isEmpty()) {
            throw NvidbException.usage("name the alerts to acknowledge (nvidb queue ack 3 4), or pass --all");
        }
        return store.db.write(() -> {
            Instant now = Times.now();
            if (all) {
                return new AckResult(store.alerts.acknowledgeAll(now), List.of());
            }
            List<Acknowledged> results = new ArrayList<>();
            int count = 0;
            for (long id : new java.util.LinkedHashSet<>(ids)) {
                boolean found = store.alerts.find(id).isPresent();
                boolean acknowledged = found && store.alerts.acknowledge(List.of(id), now) > 0;
                results.add(new Acknowledged(id, found, acknowledged));
                count += acknowledged ? 1 : 0;
            }
            return new AckResult(count, results);
        });
    }
}
