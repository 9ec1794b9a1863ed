package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import nvidb.core.api.AlertKind;
import nvidb.core.api.EventKind;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.config.QueueConfig;
import nvidb.core.node.ConfiguredNode;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeProbeScript;
import nvidb.core.node.NodeReport;
import nvidb.core.node.OomSignatures;
import nvidb.core.store.BatchRepository.BatchJob;
import nvidb.core.store.OrphanRepository.Orphan;
import nvidb.core.store.Store;
import nvidb.core.util.Texts;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * Probes every node that matters, in parallel, one round trip each (node facts, the process
 * table, the probe plugin's queries, the state of each running or staged job's directory), then
 * kills that node's orphans. Back on the tick's thread it marks unreachable nodes down, and for
 * the others records GPU budgets, measured job memory and the node's state once the settle pass
 * has said which jobs still run.
 */
final class NodeRefreshPass {
    private final Store store;
    private final QueueConfig config;
    private final NodeConnections nodes;
    private final NodeKills kills;

    NodeRefreshPass(Store store, QueueConfig config, NodeConnections nodes, NodeKills kills) {
        this.store = store;
        this.config = config;
        this.nodes = nodes;
        this.kills = kills;
    }

    /** Observes every node that is configured or still has work or kill obligations; counts ignored ones. */
    List<Observation> probe(TickSummary.Builder summary) {
        List<NodeRecord> all = store.db.read(store.nodes::all);
        List<Job> running = store.db.read(() -> store.jobs.inStates(List.of(JobState.RUNNING)));
        Set<String> withOrphans = store.db.read(() -> store.orphans().nodes());
        Map<String, LaneRecord> lanes = new HashMap<>();
        store.db.read(store.lanes::all).forEach(l -> lanes.put(l.name(), l));
        // Lane jobs handed to a runner: their run directories say whether the runner started them.
        Map<String, List<Job>> staged = new HashMap<>();
        for (Job j : store.db.read(store.jobs::staged)) {
            LaneRecord lane = lanes.get(j.lane());
            if (lane != null) {
                staged.computeIfAbsent(lane.node(), k -> new ArrayList<>()).add(j);
            }
        }
        // Jobs a batch node holds for nvidb while its scheduler keeps them pending: their
        // directories and the batch system's word say when they start.
        Map<Long, BatchJob> submissions = nodes.nodes().stream().anyMatch(ConfiguredNode.BatchPartition.class::isInstance)
                ? store.db.read(store.batch::active) : Map.of();
        if (!submissions.isEmpty()) {
            for (Job j : store.db.read(() -> store.jobs.inStates(List.of(JobState.PENDING)))) {
                BatchJob b = submissions.get(j.id());
                if (b != null && j.node() != null && j.node().equals(b.node()) && b.submittedAs(j.runDir())) {
                    staged.computeIfAbsent(j.node(), k -> new ArrayList<>()).add(j);
                }
            }
        }
        List<Future<Observation>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (NodeRecord n : all) {
                if (n.ignored()) {
                    summary.countNode(n.state(), true);
                    continue;
                }
                List<Job> here = running.stream().filter(j -> n.name().equals(j.node())).toList();
                ConfiguredNode configured = nodes.node(n.name()).orElse(null);
                if (configured == null && here.isEmpty() && !withOrphans.contains(n.name())) {
                    continue;
                }
                List<Orphan> orphans = withOrphans.contains(n.name())
                        ? store.db.read(() -> store.orphans().forNode(n.name())) : List.of();
                List<Job> handedOver = staged.getOrDefault(n.name(), List.of());
                // If chains, not pattern switches here and below: each pattern switch spins a class at
                // run time (SwitchBootstraps) that the AOT cache does not keep (StartupRules).
                futures.add(pool.submit(() -> configured == null
                        ? new Observation.Unreachable(n, here, handedOver, "node " + n.name() + " is no longer configured")
                        : configured instanceof ConfiguredNode.BatchPartition b
                        ? observeBatch(n, b.scheduler(), here, handedOver, orphans, submissions)
                        : observe(n, here, handedOver, orphans)));
            }
        }
        List<Observation> out = new ArrayList<>();
        for (Future<Observation> f : futures) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw NvidbException.interrupted();
            }
        }
        Interruption.check(); // an interrupted probe says nothing about its node
        return out;
    }

    /** The remote part of a refresh: one probe round trip, then kills of this node's orphans. */
    private Observation observe(NodeRecord node, List<Job> running, List<Job> staged, List<Orphan> orphans) {
        try {
            NodeProbeScript probeScript = new NodeProbeScript();
            List<NodeProbeScript.JobDir> dirs = Stream.concat(running.stream(), staged.stream())
                    .filter(j -> j.runDir() != null).map(j -> new NodeProbeScript.JobDir(j.id(), j.runDir())).toList();
            String script = probeScript.script(nodes.scriptProbe(node.name()).script(), dirs,
                    OomSignatures.with(config.settings().learning().oomSignatures()));
            ExecResult r = nodes.run(node.name(), script, Duration.ofSeconds(config.settings().probeTimeout()), true);
            NodeReport report;
            try {
                report = probeScript.parse(r.stdout());
            } catch (IllegalStateException e) {
                throw new TransportException("the probe of " + node.name() + " failed: " + firstLine(r.stderr(),
                        e.getMessage()));
            }
            GpuReport gpus;
            try {
                gpus = nodes.parseProbe(node.name(), report.kernel()).parse(report.gpuOutput());
            } catch (RuntimeException e) {
                gpus = GpuReport.failed("the GPU probe's answer could not be read: " + e.getMessage());
            }
            return new Observation.Reached(node, running, staged, report, gpus, reap(node, orphans));
        } catch (TransportException e) {
            return new Observation.Unreachable(node, running, staged, e.getMessage());
        }
    }

    private Map<Long, Boolean> reap(NodeRecord node, List<Orphan> orphans) throws TransportException {
        Map<Long, Boolean> reaped = new HashMap<>();
        for (Orphan o : orphans) {
            boolean killable = o.pid() != null && o.runDir() != null;
            reaped.put(o.id(), killable && kills.terminate(node.name(), o.runDir(), o.pid(), o.pgid()));
        }
        return reaped;
    }

    /**
     * A batch node's round trip: the job directories as on any node, and in the place of the GPU
     * probe the batch plugin's one query of its scheduler for all of the node's jobs and GPUs.
     * Then the cancels it is owed.
     */
    private Observation observeBatch(NodeRecord node, BatchScheduler batch, List<Job> running, List<Job> staged,
                                     List<Orphan> orphans, Map<Long, BatchJob> submissions) {
        try {
            List<Job> mine = Stream.concat(running.stream(), staged.stream()).toList();
            List<String> ids = mine.stream().map(j -> submissions.get(j.id())).filter(b -> b != null && b.batchId() != null)
                    .map(BatchJob::batchId).distinct().toList();
            NodeProbeScript probeScript = new NodeProbeScript();
            List<NodeProbeScript.JobDir> dirs = mine.stream().filter(j -> j.runDir() != null)
                    .map(j -> new NodeProbeScript.JobDir(j.id(), j.runDir())).toList();
            ExecResult r = nodes.run(node.name(), probeScript.script(batch.pollFunction(ids), dirs),
                    Duration.ofSeconds(config.settings().probeTimeout()), true);
            NodeReport report;
            BatchPoll poll;
            try {
                report = probeScript.parse(r.stdout());
                poll = batch.parsePoll(report.gpuOutput());
            } catch (IllegalStateException e) {
                throw new TransportException(node.name() + ": " + firstLine(e.getMessage(), r.stderr()));
            }
            return new Observation.BatchReached(node, running, staged, report, poll, batch, reap(node, orphans));
        } catch (TransportException e) {
            return new Observation.Unreachable(node, running, staged, e.getMessage());
        }
    }

    private static String firstLine(String text, String fallback) {
        String t = text == null ? "" : text.strip();
        return t.isEmpty() ? fallback : t.lines().findFirst().orElse(fallback);
    }

    /** An unreachable node goes down with one alert; its running jobs stay running, unchecked. */
    void markDown(Observation.Unreachable o, TickSummary.Builder summary) {
        NodeRecord n = o.node();
        Instant now = Times.now();
        String error = Texts.truncate(o.reason(), 300);
        store.db.write(() -> {
            store.nodes.markDown(n.name(), now, error);
            store.gpus.replace(n.name(), List.of());
            if (n.state() != NodeState.DOWN) {
                store.events.append(now, EventKind.NODE_DOWN, null, n.name(), Texts.truncate(o.reason(), 200), null);
                String title = n.name() + " is unreachable" + (o.running().isEmpty() ? ""
                        : "; " + o.running().size() + " running job(s) cannot be checked");
                long id = store.alerts.raise(now, AlertKind.NODE_DOWN, null, n.name(), title, o.reason());
                summary.alert(new TickSummary.AlertRef(id, AlertKind.NODE_DOWN.label(), title, null));
            }
            return null;
        });
        summary.problem("node", n.name(), error);
        countAfter(n, summary);
    }

    /** Records a reached node's GPU budgets with the jobs that still run there, and marks it up. */
    void record(Observation.Reached o, List<Job> stillRunning, TickSummary.Builder summary) {
        NodeRecord n = o.node();
        Instant now = Times.now();
        Map<Integer, Capacity.ProcessInfo> ps = new HashMap<>();
        o.report().processes().forEach((pid, row) -> ps.put(pid, new Capacity.ProcessInfo(row.pgid(), row.user(),
                row.command())));
        Capacity.NodeCapacity capacity = Capacity.account(n.name(), o.gpus().gpus(), ps, stillRunning,
                config.settings().headroomMb(), now);
        store.db.write(() -> {
            store.gpus.replace(n.name(), capacity.gpus());
            store.history.recordGpus(now, capacity.gpus(), capacity.powerByGpu());
            UsageWatch usage = new UsageWatch(store, config.settings().learning());
            for (Job j : stillRunning) {
                Long measured = capacity.measuredByJob().get(j.id());
                if (measured != null && !measured.equals(j.gpuMemMb() == null ? null : (long) j.gpuMemMb())) {
                    store.jobs.recordGpuMemory(j.id(), measured.intValue(), now);
                }
                usage.look(j, capacity.samples().get(j.id()), now, n.lastSeen(), summary);
            }
            store.nodes.markUp(n.name(), now, o.gpus().error() == null ? null : Texts.truncate(o.gpus().error(), 300),
                    o.gpus().gpus().size());
            if (n.state() != NodeState.UP) {
                store.events.append(now, EventKind.NODE_UP, null, n.name(),
                        n.name() + " is online (" + o.gpus().gpus().size() + " GPU)", null);
            }
            List<Orphan> owed = store.orphans().forNode(n.name());
            for (Map.Entry<Long, Boolean> r : o.reaped().entrySet()) {
                Orphan orphan = owed.stream().filter(x -> x.id() == r.getKey()).findFirst().orElse(null);
                store.orphans().delete(r.getKey());
                if (r.getValue() && orphan != null) {
                    store.events.append(now, EventKind.JOB_REAPED, orphan.jobId(), n.name(),
                            "killed a leftover process (" + orphan.reason() + ")", java.util.Map.of("pid", orphan.pid()));
                }
            }
            return null;
        });
        countAfter(n, summary);
    }

    /**
     * Records a reached batch node: the GPUs of its partition as its capacity (allocated ones
     * shown in use, by whomever), and marks it up.
     */
    void recordBatch(Observation.BatchReached o, TickSummary.Builder summary) {
        NodeRecord n = o.node();
        Instant now = Times.now();
        BatchPoll poll = o.poll();
        long vram = o.scheduler().limits().gpuVramMb();
        String system = o.scheduler().system();
        List<GpuState> gpus = new ArrayList<>();
        for (int i = 0; i < poll.gpusTotal(); i++) {
            boolean used = i < poll.gpusAllocated();
            Integer total = vram > 0 ? (int) vram : null;
            Integer usedMb = total == null ? null : used ? total : 0;
            gpus.add(new GpuState(n.name(), i, null, system + " GPU", total, usedMb, used ? 100 : 0, null, null,
                    used && total != null ? total : 0, used ? 1 : 0, 0, 0, 0, system, List.of(), 0, now));
        }
        store.db.write(() -> {
            store.gpus.replace(n.name(), gpus);
            store.nodes.markUp(n.name(), now, null, poll.gpusTotal());
            if (n.state() != NodeState.UP) {
                store.events.append(now, EventKind.NODE_UP, null, n.name(), n.name() + " is online (" + system + ", "
                        + poll.gpusTotal() + " GPU, " + poll.gpusIdle() + " idle)", null);
            }
            List<Orphan> owed = store.orphans().forNode(n.name());
            for (Map.Entry<Long, Boolean> r : o.reaped().entrySet()) {
                Orphan orphan = owed.stream().filter(x -> x.id() == r.getKey()).findFirst().orElse(null);
                store.orphans().delete(r.getKey());
                if (r.getValue() && orphan != null) {
                    store.events.append(now, EventKind.JOB_REAPED, orphan.jobId(), n.name(),
                            "cancelled in " + system + " (" + orphan.reason() + ")", null);
                }
            }
            return null;
        });
        countAfter(n, summary);
    }

    private void countAfter(NodeRecord n, TickSummary.Builder summary) {
        NodeRecord after = store.db.read(() -> store.nodes.find(n.name())).orElse(n);
        summary.countNode(after.state(), false);
    }
}
