package nvidb.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.LaunchResult;
import nvidb.spi.transport.TransportException;

/**
 * The free pool: pending jobs outside lanes, in dispatch order. A job no GPU could ever hold
 * fails at once; the rest start where the placement planner puts them, letting smaller later jobs
 * pass a blocked big one. Each job's place is recorded before its launch round trip: a node that
 * refuses the launch clears it and is skipped for that job; one that cannot be reached, or a
 * client that dies mid-launch, leaves it, and the next pass launches at that place again, where
 * the launch adopts whatever already started, so an attempt never starts on two nodes.
 */
final class PoolDispatchPass {
    private final JobLifecycle lifecycle;
    private final Launcher launcher;

    PoolDispatchPass(JobLifecycle lifecycle, Launcher launcher) {
        this.lifecycle = lifecycle;
        this.launcher = launcher;
    }

    void run(DispatchRound round, TickSummary.Builder summary) {
        for (Job job : round.pending()) {
            if (job.lane() != null || job.held()) {
                continue; // lane jobs went first, in lane order; held jobs wait for a person
            }
            if (DependencyGate.evaluate(job, round.deps()).verdict() != DependencyGate.Verdict.READY
                    || !round.limits().admits(job)) {
                continue; // waiting for its dependencies, or its sweep has --max-parallel runs under way
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
                reject(lifecycle, job, impossible.get(), summary);
            } else {
                launchSomewhere(job, round, summary);
            }
        }
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

    private void launchSomewhere(Job job, DispatchRound round, TickSummary.Builder summary) {
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
                return; // cancelled or started by another client meanwhile: nothing to launch
            }
            round.limits().charge(job); // placed: under way until it ends or the place is cleared
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
            return;
        }
        if (!errors.isEmpty()) {
            launcher.failed(job, String.join("; ", errors), summary);
        }
    }
}
