package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import nvidb.core.api.Job;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.config.QueueConfig;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.lifecycle.Moves;
import nvidb.core.node.LaunchResult;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeScripts;
import nvidb.core.util.Texts;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * How a job gets started and recorded: the scheduler's own launch round trip (which starts the
 * job detached at the chosen place, or adopts the attempt already running there), and a lane
 * runner's report that it started one.
 */
final class Launcher {
    private final QueueConfig config;
    private final NodeConnections nodes;
    private final JobLifecycle lifecycle;
    private final NodeKills kills;

    Launcher(QueueConfig config, NodeConnections nodes, JobLifecycle lifecycle, NodeKills kills) {
        this.config = config;
        this.nodes = nodes;
        this.lifecycle = lifecycle;
        this.kills = kills;
    }

    /** One launch round trip. */
    LaunchResult launch(Job job, PlacementPlanner.Choice c, int attempt) throws TransportException {
        NodeScripts.LaunchSpec spec = new NodeScripts.LaunchSpec(job, c.node(), nodes.jobRoot(c.node()), c.gpuIds(),
                attempt);
        ExecResult r = nodes.run(c.node(), NodeScripts.launch(spec),
                Duration.ofSeconds(config.settings().launchTimeout()), true);
        return LaunchResult.parse(r.stdout(), r.stderr());
    }

    /** Launches a job on one given place and charges the planner; true when it started. */
    boolean launchOn(Job job, PlacementPlanner.Choice c, PlacementPlanner planner, TickSummary.Builder summary) {
        int attempt = job.attempt() + 1;
        LaunchResult result;
        try {
            result = launch(job, c, attempt);
        } catch (TransportException e) {
            Interruption.check(); // not a failed launch: the next pass adopts or starts this attempt
            failed(job, c.node() + ": " + e.getMessage(), summary);
            return false;
        }
        if (!result.started()) {
            failed(job, c.node() + ": " + result.error(), summary);
            return false;
        }
        started(job, c, result, attempt, summary);
        planner.charge(job, c);
        return true;
    }

    void started(Job job, PlacementPlanner.Choice c, LaunchResult r, int attempt, TickSummary.Builder summary) {
        Instant now = Times.now();
        Moves.Start start = new Moves.Start(new Moves.Launched(r.adopted()), c.node(), c.gpuIds(), r.pid(), r.pgid(),
                r.runDir(), now, attempt);
        if (JobLifecycle.ifStillLegal(() -> lifecycle.start(job.id(), start, now)) != null) {
            summary.dispatched(new TickSummary.Dispatched(job.id(), c.node(), c.gpuIds(), job.lane()));
        } else if (!lifecycle.launches().runsIn(job.id(), r.runDir())) {
            stopUnwanted(job, c.node(), r);
        }
    }

    /**
     * The job was cancelled (or purged) while its launch round trip was on the wire: what that
     * launch just started must not keep a GPU nobody accounts for.
     */
    private void stopUnwanted(Job job, String node, LaunchResult r) {
        try {
            kills.terminate(node, r.runDir(), r.pid(), r.pgid());
        } catch (TransportException e) {
            lifecycle.launches().owesKill(job.id(), node, r.runDir(), r.pid(), r.pgid(), "cancelled while it was launched",
                    Times.now());
        }
    }

    /** The job stays pending with the error; one alert per persistent fault. */
    void failed(Job job, String errors, TickSummary.Builder summary) {
        String message = Texts.truncate("launch failed: " + errors, 500);
        TickSummary.AlertRef alert = lifecycle.launches().launchFailed(job.id(), message, errors, Times.now());
        if (alert != null) {
            summary.alert(alert);
            summary.problem("job", String.valueOf(job.id()), message);
        }
    }

    /**
     * A lane runner started this pending job (its state or the job's run directory says so): it
     * is running from now on, on the lane's node and cards, as if the scheduler had launched it.
     * Returns the job as it is now, or null when it is no longer pending (cancelled meanwhile:
     * the runner's report of it is then reaped by the staging pass).
     */
    Job runnerStarted(Job job, LaneRecord lane, Integer pid, Integer pgid, long startedEpoch, String runDir,
                      TickSummary.Builder summary) {
        if (lane == null || pid == null) {
            return null;
        }
        Instant now = Times.now();
        Moves.Start start = new Moves.Start(new Moves.ByRunner(lane.name()), lane.node(), lane.gpuIds(), pid, pgid,
                runDir, SettlePass.nodeTime(startedEpoch, now), job.attempt() + 1);
        JobLifecycle.Applied done = JobLifecycle.ifStillLegal(() -> lifecycle.start(job.id(), start, now));
        if (done == null) {
            return null;
        }
        summary.dispatched(new TickSummary.Dispatched(job.id(), lane.node(), lane.gpuIds(), lane.name()));
        return done.job();
    }
}
