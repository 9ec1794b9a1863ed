package nvidb.core.lanes;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import nvidb.core.api.Job;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.LaneRunners;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.config.QueueConfig;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.LaneRunner;
import nvidb.core.node.NodeConnections;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * The node side of lanes: a lane's runner as it last answered, switching it on or off, stopping
 * or replacing it, and taking a staged job back from it. The job itself is never signalled here.
 */
public final class LaneRunnerService implements LaneRunners {
    private final ServiceContext ctx;
    private final Store store;
    private final QueueConfig config;
    private final NodeConnections nodes;

    public LaneRunnerService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.config = ctx.config();
        this.nodes = ctx.nodes();
    }

    @Override
    public RunnerStatus runner(String typed) {
        LaneQueries.LaneView v = new LaneQueryService(ctx).show(typed);
        JsonNode state = LaneQueryService.runnerState(v.lane());
        List<Long> running = new ArrayList<>();
        state.path("current").forEach(c -> running.add(c.path("job_id").asLong()));
        List<Long> staged = new ArrayList<>();
        state.path("queued").forEach(q -> staged.add(q.asLong()));
        Integer pid = state.path("pid").canConvertToInt() ? state.path("pid").asInt() : null;
        String waiting = state.path("waiting").isTextual() ? state.path("waiting").asText() : null;
        return new RunnerStatus(v.lane(), v.runnerUp(), pid, running, staged, waiting, v.blocked());
    }

    @Override
    public RunnerControl setRunner(String typed, boolean on, TickMode after) {
        LaneRecord lane = store.db.write(() -> {
            String name = Lanes.of(ctx).name(typed);
            store.lanes.setRunner(name, on, Times.now());
            return store.lanes.find(name).orElseThrow();
        });
        if (on) {
            return new RunnerControl(lane, false, false, ctx.tick(ServiceContext.forced(after)));
        }
        boolean stopped;
        try {
            stopped = stopRemote(lane, false, false);
        } catch (TransportException e) {
            stopped = false; // the next pass that reaches the node withdraws its specs and stops the runner
        }
        return new RunnerControl(store.db.read(() -> store.lanes.find(lane.name()).orElseThrow()), stopped, false, null);
    }

    @Override
    public RunnerControl stop(String typed, boolean hard) {
        LaneRecord lane = new LaneQueryService(ctx).resolve(typed);
        boolean stopped = remote(lane, () -> stopRemote(lane, hard, false));
        return new RunnerControl(store.db.read(() -> store.lanes.find(lane.name()).orElseThrow()), stopped, hard, null);
    }

    @Override
    public RunnerControl restart(String typed, boolean hard, TickMode after) {
        LaneRecord lane = new LaneQueryService(ctx).resolve(typed);
        if (!lane.runner()) {
            throw NvidbException.conflict("the runner of lane '" + lane.name() + "' is off (the scheduler starts its jobs);"
                    + " switch it on with `nvidb queue lane " + lane.name() + " runner on`");
        }
        boolean stopped = remote(lane, () -> stopRemote(lane, hard, true));
        TickSummary tick = ctx.tick(ServiceContext.forced(after));
        return new RunnerControl(store.db.read(() -> store.lanes.find(lane.name()).orElseThrow()), stopped, hard, tick);
    }

    private interface Remote {
        boolean call() throws TransportException;
    }

    private boolean remote(LaneRecord lane, Remote call) {
        if (nodes.server(lane.node()).isEmpty()) {
            throw NvidbException.conflict("node " + lane.node() + " of lane '" + lane.name() + "' is not configured");
        }
        try {
            return call.call();
        } catch (TransportException e) {
            throw NvidbException.failed("cannot reach " + lane.node() + " to stop the runner of lane '" + lane.name()
                    + "': " + e.getMessage());
        }
    }

    /** One round trip: withdraws, asks the runner to stop or exit, and forgets its cached state. */
    private boolean stopRemote(LaneRecord lane, boolean hard, boolean restart) throws TransportException {
        if (nodes.server(lane.node()).isEmpty()) {
            return false;
        }
        String marker = "@@nvidb-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        ExecResult r = nodes.run(lane.node(), LaneRunner.stopScript(config.settings().laneSpoolRoot(), lane.name(), hard,
                restart, marker), Duration.ofSeconds(config.settings().probeTimeout()), true);
        LaneRunner.LaneAnswer answer = LaneRunner.parseLane(r.stdout(), marker);
        store.db.write(() -> {
            store.lanes.saveRunnerState(lane.name(), null, null);
            return null;
        });
        return answer.stopped();
    }

    /**
     * @param startedPid the job's run.sh pid when the runner had already started it and it still runs, else null
     * @param exitCode   the job's exit code when the runner had already run it to the end, else null
     */
    public record Withdrawn(String node, Integer startedPid, Integer exitCode) {
        /** The runner got there first: the job started, and may have ended. */
        boolean ran() {
            return startedPid != null || exitCode != null;
        }
    }

    /**
     * Takes a staged job back from its lane's runner: deletes its spec unless already claimed.
     * Returns null when the job was never staged (nothing to do); otherwise the node and what the
     * runner already did with it. A job the runner never started forgets its run directory.
     */
    public Withdrawn withdraw(Job job) throws TransportException {
        if (job.lane() == null || job.runDir() == null) {
            return null;
        }
        String node = store.db.read(() -> store.lanes.find(job.lane())).map(LaneRecord::node).orElse(null);
        if (node == null || nodes.server(node).isEmpty()) {
            return null;
        }
        String out = nodes.run(node, LaneRunner.withdrawScript(config.settings().laneSpoolRoot(), job.lane(), job.id(),
                job.runDir()), Duration.ofSeconds(config.settings().probeTimeout()), true).stdout();
        Withdrawn w = new Withdrawn(node, number(out, "pid="), number(out, "exit="));
        if (!w.ran()) {
            JobLifecycle.ifStillLegal(() -> ctx.lifecycle().unstage(job.id(), job.runDir(), Times.now()));
        }
        return w;
    }

    /** The first whole number after {@code key} at the start of a line of the withdraw script's answer. */
    private static Integer number(String out, String key) {
        return out.lines().filter(l -> l.startsWith(key)).map(l -> l.substring(key.length()).strip().split(" ")[0])
                .filter(v -> v.matches("-?\\d{1,9}")).map(Integer::valueOf).findFirst().orElse(null);
    }
}
