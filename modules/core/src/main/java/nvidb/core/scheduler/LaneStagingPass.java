package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.Json;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.LaneRunner;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeScripts;
import nvidb.core.store.Store;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * The part of a pass that keeps lane runners supplied (reference-scheduler.md §6.6): for each
 * lane whose runner is on, it stages the lane's head (up to {@code max(lane_lookahead,
 * concurrency)} jobs; never past a held or waiting one) and withdraws everything else; it starts
 * a runner where one is wanted, replaces one of another version, tells an idle one to stop, and
 * reads back what each runner runs. One round trip per node, nodes in parallel. A job stays a
 * pending record until the runner says, or its run directory shows, that it started.
 */
final class LaneStagingPass {
    private final Store store;
    private final QueueConfig config;
    private final NodeConnections nodes;
    private final JobLifecycle lifecycle;
    private final Launcher launcher;
    private final NodeKills kills;

    LaneStagingPass(Store store, QueueConfig config, NodeConnections nodes, JobLifecycle lifecycle, Launcher launcher,
                    NodeKills kills) {
        this.store = store;
        this.config = config;
        this.nodes = nodes;
        this.lifecycle = lifecycle;
        this.launcher = launcher;
        this.kills = kills;
    }

    /** One lane's part of a node's round trip. */
    private record Planned(LaneRecord lane, LaneRunner.Sync sync) {
    }

    /**
     * @param homes each node reached in this pass, with its {@code $HOME}; no other node is contacted
     */
    void run(DispatchRound round, Map<String, String> homes, TickSummary.Builder summary) {
        List<LaneRecord> lanes = store.db.read(store.lanes::all);
        if (lanes.isEmpty()) {
            return;
        }
        List<Job> running = round.running();
        Map<String, NodeRecord> nodeRows = new HashMap<>();
        store.db.read(store.nodes::all).forEach(n -> nodeRows.put(n.name(), n));
        Map<String, Set<Integer>> cards = new HashMap<>();
        store.db.read(() -> store.gpus.all(config.settings().headroomMb()))
                .forEach(g -> cards.computeIfAbsent(g.node(), k -> new HashSet<>()).add(g.index()));
        Map<String, List<Job>> queues = round.laneQueues();
        Map<String, List<Planned>> byNode = new LinkedHashMap<>();
        for (LaneRecord lane : lanes) {
            String home = homes.get(lane.node());
            NodeRecord node = nodeRows.get(lane.node());
            if (home == null || node == null || node.ignored()) {
                continue; // not reached in this pass: nothing can be said to it
            }
            List<Job> laneRunning = running.stream().filter(j -> lane.name().equals(j.lane())).toList();
            if (!lane.runner() && lane.runnerStateJson() == null) {
                continue; // the controller dispatches this lane itself and no runner is left to stop
            }
            ServerConfig server = nodes.server(lane.node()).orElse(null);
            boolean ready = LaneReadiness.unavailable(lane, node, server) == null
                    && LaneReadiness.cardsUnusable(lane, cards.getOrDefault(lane.node(), Set.of()), server) == null;
            List<Job> heads = lane.runner() && ready
                    ? stageable(lane, queues.getOrDefault(lane.name(), List.of()), round, summary)
                    : List.of();
            boolean wanted = lane.runner() && (!heads.isEmpty() || !laneRunning.isEmpty());
            if (!wanted && lane.runnerStateJson() == null) {
                continue;
            }
            List<LaneRunner.Staged> staged = new ArrayList<>();
            for (Job job : heads) {
                LaneRunner.Staged s = stage(job, lane, home);
                if (s != null) {
                    staged.add(s);
                }
            }
            LaneRunner.Sync sync = new LaneRunner.Sync(lane.name(), lane.gpuIds(), lane.concurrency(),
                    config.settings().headroomMb(), config.settings().maxJobsPerGpu(), others(lane, running), staged,
                    wanted);
            byNode.computeIfAbsent(lane.node(), k -> new ArrayList<>()).add(new Planned(lane, sync));
        }
        if (byNode.isEmpty()) {
            return;
        }
        Map<String, Future<List<LaneRunner.LaneAnswer>>> answers = new LinkedHashMap<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Map.Entry<String, List<Planned>> e : byNode.entrySet()) {
                List<LaneRunner.Sync> syncs = e.getValue().stream().map(Planned::sync).toList();
                answers.put(e.getKey(), pool.submit(() -> sync(e.getKey(), syncs)));
            }
        }
        Interruption.check(); // an interrupted sync says nothing about its runners
        for (Map.Entry<String, List<Planned>> e : byNode.entrySet()) {
            List<LaneRunner.LaneAnswer> got;
            try {
                got = answers.get(e.getKey()).get();
            } catch (ExecutionException ex) {
                String why = ex.getCause() instanceof TransportException t ? t.getMessage() : String.valueOf(ex.getCause());
                summary.problem("node", e.getKey(), "lane sync failed: " + why);
                continue;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw NvidbException.interrupted();
            }
            for (int k = 0; k < e.getValue().size(); k++) {
                apply(e.getValue().get(k).lane(), got.get(k), summary);
            }
        }
    }

    /** The lane's next jobs to hand over: unschedulable ones fail and are passed; a held or waiting one stops the walk. */
    private List<Job> stageable(LaneRecord lane, List<Job> queue, DispatchRound round, TickSummary.Builder summary) {
        int window = Math.max(config.settings().laneLookahead(), lane.concurrency());
        List<Job> out = new ArrayList<>();
        for (Job job : queue) {
            if (out.size() >= window) {
                break;
            }
            Optional<String> impossible = round.planner().unschedulable(job);
            if (impossible.isPresent()) {
                PoolDispatchPass.reject(lifecycle, job, impossible.get(), summary);
                continue;
            }
            if (!LaneReadiness.headReady(job, round.deps()) || !round.admits(job)) {
                break; // a staged run can start without asking: it takes a slot of its sweep's --max-parallel
            }
            round.charge(job);
            out.add(job);
        }
        return out;
    }

    /**
     * The spec of one job, after its run directory is written to the database: a job that starts
     * and ends between two passes is then still found (and never staged again).
     */
    private LaneRunner.Staged stage(Job job, LaneRecord lane, String home) {
        int attempt = job.attempt() + 1;
        String jobRoot = nodes.jobRoot(lane.node());
        String runDir = NodeScripts.runDir(home, jobRoot, job.id(), attempt);
        if (!runDir.equals(job.runDir())) {
            Instant now = Times.now();
            if (JobLifecycle.ifStillLegal(() -> lifecycle.stage(job.id(), runDir, now)) == null) {
                return null;
            }
        }
        String run = NodeScripts.runScript(new NodeScripts.LaunchSpec(job, lane.node(), jobRoot, lane.gpuIds(), attempt));
        long seq = job.laneSeq() == null ? job.id() : job.laneSeq();
        return new LaneRunner.Staged(job.id(), seq, runDir, job.vramMb(),
                job.maxRuntimeS() == null ? 0 : job.maxRuntimeS(), run, job.command());
    }

    /** Queue work on the lane's cards that is not the lane's own: what nvidia-smi alone cannot tell the runner. */
    private static List<LaneRunner.OtherWork> others(LaneRecord lane, List<Job> running) {
        List<LaneRunner.OtherWork> out = new ArrayList<>();
        for (int g : lane.gpuIds()) {
            int jobs = 0;
            long unused = 0;
            for (Job j : running) {
                if (!lane.node().equals(j.node()) || lane.name().equals(j.lane()) || !j.gpuIds().contains(g)) {
                    continue;
                }
                jobs++;
                long measuredHere = j.gpuMemMb() == null ? 0 : j.gpuMemMb() / Math.max(1, j.gpuIds().size());
                unused += Math.max(0, j.vramMb() - measuredHere);
            }
            out.add(new LaneRunner.OtherWork(g, jobs, unused));
        }
        return out;
    }

    private List<LaneRunner.LaneAnswer> sync(String node, List<LaneRunner.Sync> syncs) throws TransportException {
        LaneRunner runner = new LaneRunner(nodes.scriptProbe(node).freeMemoryScript());
        String marker = "@@nvidb-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        LaneRunner.Timing timing = new LaneRunner.Timing(config.settings().lanePollInterval(),
                config.settings().laneIdleExit());
        String script = runner.syncScript(config.settings().laneSpoolRoot(), timing, syncs, marker);
        ExecResult r = nodes.run(node, script, Duration.ofSeconds(config.settings().launchTimeout()), true);
        try {
            return LaneRunner.parseSync(r.stdout(), marker, syncs.size());
        } catch (IllegalStateException e) {
            String err = r.stderr() == null ? "" : r.stderr().strip();
            throw new TransportException(e.getMessage() + (err.isEmpty() ? "" : ": " + err.lines().findFirst().orElse("")));
        }
    }

    private void apply(LaneRecord lane, LaneRunner.LaneAnswer answer, TickSummary.Builder summary) {
        if (answer.error() != null) {
            summary.problem("lane", lane.name(), answer.error());
            return;
        }
        LaneRunner.RunnerState state = answer.state();
        Instant now = Times.now();
        store.db.write(() -> {
            store.lanes.saveRunnerState(lane.name(), state == null ? null : Json.write(state.toMap(answer.alive())),
                    state == null ? null : now);
            return null;
        });
        if (state == null) {
            return;
        }
        for (LaneRunner.Current c : state.current()) {
            Job job = store.db.read(() -> store.jobs.find(c.jobId())).orElse(null);
            if (job == null) {
                continue;
            }
            if (job.state() == JobState.PENDING) {
                launcher.runnerStarted(job, lane, c.pid(), c.pid(), c.startedAt(), c.runDir(), summary);
            } else if (job.state().terminal()) {
                reap(lane, job, c, summary);
            }
        }
    }

    /** The runner started a job whose record had already ended (cancelled while staged): stop it. */
    private void reap(LaneRecord lane, Job job, LaneRunner.Current c, TickSummary.Builder summary) {
        String node = lane.node();
        try {
            if (kills.terminate(node, c.runDir(), c.pid(), c.pid())) {
                Instant now = Times.now();
                store.db.write(() -> {
                    store.events.append(now, EventKind.JOB_REAPED, job.id(), node,
                            "lane runner had already started this " + job.state().label() + " job", Map.of("pid", c.pid()));
                    return null;
                });
            }
        } catch (TransportException e) {
            Instant now = Times.now();
            store.db.write(() -> {
                store.orphans().add(job.id(), node, c.runDir(), c.pid(), c.pid(),
                        "started by the lane runner after it was " + job.state().label(), now);
                return null;
            });
            summary.problem("node", node, e.getMessage());
        }
    }
}
