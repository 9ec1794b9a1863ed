package nvidb.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lab.FairShare;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.ConfiguredNode;
import nvidb.core.node.LaunchResult;
import nvidb.core.store.BatchRepository.BatchJob;
import nvidb.core.store.Store;
import nvidb.spi.transport.TransportException;

/**
 * The free pool: pending jobs outside lanes, in dispatch order. A job no GPU could ever hold
 * fails at once; the rest start where the placement planner puts them, letting smaller later jobs
 * pass a blocked big one. Each job's place is recorded before its launch round trip: a node that
 * refuses the launch clears it and is skipped for that job; one that cannot be reached, or a
 * client that dies mid-launch, leaves it, and the next pass launches at that place again, where
 * the launch adopts whatever already started, so an attempt never starts on two nodes. Jobs go
 * to batch nodes (Slurm) as {@link BurstRule} says.
 */
final class PoolDispatchPass {
    private final Store store;
    private final JobLifecycle lifecycle;
    private final Launcher launcher;
    private final BatchDispatch batch;

    PoolDispatchPass(Store store, JobLifecycle lifecycle, Launcher launcher, BatchDispatch batch) {
        this.store = store;
        this.lifecycle = lifecycle;
        this.launcher = launcher;
        this.batch = batch;
    }

    /**
     * @param burst where jobs go to batch nodes, or null when none is configured
     * @param rows  the batch rows of pending and running jobs
     */
    void run(DispatchRound round, BurstRule burst, Map<Long, BatchJob> rows, Map<String, FairShare.Standing> standings,
             TickSummary.Builder summary) {
        List<Job> started = new ArrayList<>();
        List<Job> noRoom = new ArrayList<>();
        for (Job job : round.pending()) {
            if (job.lane() != null || job.held()) {
                continue; // lane jobs went first, in lane order; held jobs wait for a person
            }
            if (DependencyGate.evaluate(job, round.deps()).verdict() != DependencyGate.Verdict.READY
                    || !round.admits(job)) {
                continue; // waiting for its dependencies, or its sweep has --max-parallel runs under way
            }
            BatchJob row = rows.get(job.id());
            if (row != null && job.node() != null && job.node().equals(row.node()) && row.submittedAs(job.runDir())) {
                continue; // a batch node holds it: its pass says when it starts
            }
            if (burst != null && burst.pinnedToBatch(job)) {
                Optional<String> never = burst.neverFits(job);
                if (never.isPresent()) {
                    reject(lifecycle, job, never.get(), summary);
                } else {
                    toBatch(job, burst.target(job, row, true, Times.now()), burst, summary);
                }
                continue;
            }
            if (job.node() != null) {
                if (round.planner().reachable(job.node())) {
                    resume(job, round.planner(), summary);
                    continue;
                }
                // Its place went down or away: waiting for it could stall the job for good.
                JobLifecycle.ifStillLegal(() -> lifecycle.unplace(job.id(), Times.now()));
            }
            Optional<String> impossible = round.planner().unschedulable(job);
            if (impossible.isPresent()) {
                if (burst != null && burst.couldEverTake(job, row)) {
                    toBatch(job, burst.target(job, row, true, Times.now()), burst, summary); // or waits for room there
                } else {
                    reject(lifecycle, job, impossible.get(), summary);
                }
            } else if (!launchSomewhere(job, round, started, summary)) {
                noRoom.add(job);
                if (burst != null && burst.anyBurstNode()) {
                    overflow(job, row, burst, summary);
                }
            }
        }
        if (!standings.isEmpty()) {
            FairShareWaits.note(noRoom, started, standings, round.waits());
        }
    }

    /** No workstation had room for the job: after {@code burst_after} it may go to a batch node. */
    private void overflow(Job job, BatchJob row, BurstRule burst, TickSummary.Builder summary) {
        Instant now = Times.now();
        if (row == null || row.waitingSince() == null) {
            store.db.write(() -> {
                store.batch.waiting(job.id(), now);
                return null;
            });
            row = store.db.read(() -> store.batch.find(job.id())).orElse(row);
        }
        toBatch(job, burst.target(job, row, false, now), burst, summary);
    }

    private boolean toBatch(Job job, Optional<ConfiguredNode.BatchPartition> node, BurstRule burst,
                            TickSummary.Builder summary) {
        if (node.isEmpty() || !batch.submit(job, node.get(), summary)) {
            return false;
        }
        burst.charge(node.get().name());
        return true;
    }

    /** Fails a job no GPU could ever hold. */
    static void reject(JobLifecycle lifecycle, Job job, String reason, TickSummary.Builder summary) {
        Instant now = Times.now();
        JobLifecycle.Applied done = JobLifecycle.ifStillLegal(() -> lifecycle.reject(job.id(), reason, now));
        if (done != null) {
            summary.alert(done.alert());
            summary.finished(job.id(), done.job().state().label(), null);
        }
    }

    /** A launch whose outcome was never recorded: back to the place it went to, and nowhere else. */
    private void resume(Job job, PlacementPlanner planner, TickSummary.Builder summary) {
        PlacementPlanner.Choice c = new PlacementPlanner.Choice(job.node(), job.gpuIds());
        int attempt = job.attempt() + 1;
        LaunchResult result;
        try {
            result = launcher.launch(job, c, attempt);
        } catch (TransportException e) {
            return; // still unreachable: the place stands until the node answers
        }
        if (!result.started()) {
            if (result.refused()) {
                JobLifecycle.ifStillLegal(() -> lifecycle.unplace(job.id(), Times.now()));
            } // else the answer proves nothing: the place stands, as for an unreachable node
            launcher.failed(job, c.node() + ": " + result.error(), summary);
            return;
        }
        launcher.started(job, c, result, attempt, summary);
        planner.charge(job, c);
    }

    /** Returns whether a workstation was tried: false when none had room (the job waits). */
    private boolean launchSomewhere(Job job, DispatchRound round, List<Job> started, TickSummary.Builder summary) {
        PlacementPlanner planner = round.planner();
        Set<String> excluded = new HashSet<>();
        List<String> errors = new ArrayList<>();
        while (true) {
            Optional<PlacementPlanner.Choice> choice = planner.choose(job, excluded);
            if (choice.isEmpty()) {
                break;
            }
            PlacementPlanner.Choice c = choice.get();
            if (JobLifecycle.ifStillLegal(() -> lifecycle.place(job.id(), c.node(), c.gpuIds(), Times.now())) == null) {
                return true; // cancelled or started by another client meanwhile: nothing to launch
            }
            round.charge(job); // placed: under way until it ends or the place is cleared
            int attempt = job.attempt() + 1;
            LaunchResult result;
            try {
                result = launcher.launch(job, c, attempt);
            } catch (TransportException e) {
                Interruption.check(); // not a failed launch: the next pass adopts or starts this attempt
                errors.add(c.node() + ": " + e.getMessage());
                break;
            }
            if (!result.started()) {
                errors.add(c.node() + ": " + result.error());
                if (!result.refused()) {
                    break; // the answer proves nothing: the place stands, as for an unreachable node
                }
                JobLifecycle.ifStillLegal(() -> lifecycle.unplace(job.id(), Times.now()));
                excluded.add(c.node());
                continue;
            }
            launcher.started(job, c, result, attempt, summary);
            planner.charge(job, c);
            started.add(job);
            return true;
        }
        if (!errors.isEmpty()) {
            launcher.failed(job, String.join("; ", errors), summary);
        }
        return !errors.isEmpty();
    }
}
