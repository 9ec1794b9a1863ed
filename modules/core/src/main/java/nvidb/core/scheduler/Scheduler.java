package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.Lease;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.config.LabSettings;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.delivery.AlertDeliveryPass;
import nvidb.core.lab.FairShare;
import nvidb.core.lab.UserQuotas;
import nvidb.core.lifecycle.BatchLifecycle;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.ConfiguredNode;
import nvidb.core.node.NodeConnections;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.store.BatchRepository.BatchJob;
import nvidb.core.store.LeaseRepository;
import nvidb.core.store.Store;
import nvidb.spi.PluginKind;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;

/**
 * One scheduler pass ("tick"), guarded by the {@code scheduler} lease so that many clients
 * ticking at once make one pass, not several. A tick is a sequence of passes, each its own class:
 * refresh the nodes and settle their jobs, enforce timeouts, gate dependencies, then dispatch
 * (stage lane runners' heads, start lanes without runners, start the free pool), and after the
 * lease is given back hand new alerts to the alert sinks ({@link AlertDeliveryPass}). Remote work
 * runs in parallel, one thread per node, so a dead node costs one timeout; every database write
 * happens on the calling thread in small transactions that other clients may observe.
 */
public final class Scheduler {
    public static final String LEASE = "scheduler";
    static final String LAST_TICK = "last_tick_at";
    /** How long the last finished pass took, in milliseconds (the web's metrics). */
    public static final String LAST_TICK_MS = "last_tick_ms";

    private final Store store;
    private final QueueConfig config;
    private final PluginRegistry plugins;
    private final String owner;
    private final NodeRefreshPass refresh;
    private final SettlePass settle;
    private final TimeoutPass timeouts;
    private final DependencyGatePass gate;
    private final AutoVramPass autoVram;
    private final LaneStagingPass staging;
    private final LaneDispatchPass lanes;
    private final PoolDispatchPass pool;
    private final BatchSettlePass batchSettle;
    private final NodeConnections nodes;
    private final AlertDeliveryPass delivery;

    public Scheduler(Store store, QueueConfig config, PluginRegistry plugins, NodeConnections nodes,
                     AlertDeliveryPass delivery) {
        this.store = store;
        this.config = config;
        this.plugins = plugins;
        this.owner = LeaseRepository.newOwner();
        JobLifecycle lifecycle = new JobLifecycle(store);
        NodeKills kills = new NodeKills(nodes);
        Launcher launcher = new Launcher(config, nodes, lifecycle, kills);
        this.refresh = new NodeRefreshPass(store, config, nodes, kills);
        VramSizing sizing = new VramSizing(store, config.settings());
        this.settle = new SettlePass(store, lifecycle, launcher, sizing);
        this.autoVram = new AutoVramPass(store, sizing);
        this.timeouts = new TimeoutPass(store, lifecycle, kills);
        this.gate = new DependencyGatePass(store, lifecycle);
        this.staging = new LaneStagingPass(store, config, nodes, lifecycle, launcher, kills);
        this.lanes = new LaneDispatchPass(store, nodes, launcher);
        BatchLifecycle batch = new BatchLifecycle(store);
        this.pool = new PoolDispatchPass(store, lifecycle, launcher, new BatchDispatch(config, nodes, batch, launcher, kills,
                lifecycle));
        this.batchSettle = new BatchSettlePass(store, lifecycle, batch, settle);
        this.nodes = nodes;
        this.delivery = delivery;
    }

    public String owner() {
        return owner;
    }

    public Duration leaseTtl() {
        return Duration.ofSeconds(config.settings().effectiveLockTtl());
    }

    /**
     * Runs one pass. A non-forced pass is skipped when the last one finished less than
     * {@code tick_min_interval} ago; any pass is skipped when another client holds the lease.
     *
     * @param alerts how long the pass may then spend handing alerts to the sinks
     */
    public TickSummary tick(boolean force, AlertDeliveryPass.Allowance alerts) {
        // What a pass does it does on its own, whoever's command made it: its events name no caller.
        return ScopedValue.where(Caller.ACTING, null).call(() -> pass(force, alerts));
    }

    private TickSummary pass(boolean force, AlertDeliveryPass.Allowance alerts) {
        Instant now = Instant.now();
        if (!force && recentlyTicked(now)) {
            return TickSummary.skipped("rate_limited", null);
        }
        Optional<Lease> blocker = store.leases.acquire(LEASE, owner, leaseTtl(), now);
        if (blocker.isPresent()) {
            return TickSummary.skipped("locked", blocker.get().owner());
        }
        TickSummary.Builder summary = new TickSummary.Builder();
        try {
            Map<String, String> homes = refreshAndSettle(summary);
            Interruption.check();
            timeouts.run(summary);
            Interruption.check();
            gate.run(summary);
            autoVram.run();
            dispatch(homes, summary);
            store.db.write(() -> {
                Instant end = Times.now();
                store.meta.put(LAST_TICK, Times.iso(end));
                store.meta.put(LAST_TICK_MS, String.valueOf(java.time.Duration.between(now, end).toMillis()));
                store.history.recordQueue(end);
                return null;
            });
        } finally {
            store.leases.release(LEASE, owner);
        }
        // Outside the scheduler lease: a slow sink must not hold up another client's pass or a
        // user's operation. Delivery takes a lease of its own.
        try {
            delivery.run(summary, alerts);
        } catch (NvidbException e) {
            if (e.code() == ErrorCode.INTERRUPTED) {
                throw e;
            }
            // The pass itself is done and recorded; the alerts wait for the next one.
            summary.problem("alerts", "delivery", e.getMessage());
        }
        return summary.build();
    }

    private boolean recentlyTicked(Instant now) {
        Instant last = store.db.read(() -> store.meta.get(LAST_TICK).map(Times::parse).orElse(null));
        double min = config.settings().tickMinInterval();
        long since = last == null ? Long.MAX_VALUE : Duration.between(last, now).toMillis();
        // A last pass in the future means the clock went back since: waiting for the clock to
        // catch up would leave every read without its pass for as long as it went back.
        return since >= 0 && since < min * 1000;
    }

    /** Returns each node reached, with its {@code $HOME} (where relative job and spool roots live). */
    private Map<String, String> refreshAndSettle(TickSummary.Builder summary) {
        Map<String, LaneRecord> laneRows = new HashMap<>();
        store.db.read(store.lanes::all).forEach(l -> laneRows.put(l.name(), l));
        Map<String, String> homes = new LinkedHashMap<>();
        for (Observation o : refresh.probe(summary)) {
            // An if chain, not a pattern switch: see StartupRules.
            if (o instanceof Observation.Unreachable down) {
                refresh.markDown(down, summary);
            } else if (o instanceof Observation.Reached r) {
                refresh.record(r, settle.run(r, laneRows, summary), summary);
                homes.put(r.node().name(), r.report().home());
            } else if (o instanceof Observation.BatchReached b) {
                batchSettle.run(b, summary);
                refresh.recordBatch(b, summary);
                homes.put(b.node().name(), b.report().home());
            }
        }
        return homes;
    }

    private void dispatch(Map<String, String> homes, TickSummary.Builder summary) {
        List<Job> pending = store.db.read(() -> store.jobs.inStates(List.of(JobState.PENDING)));
        boolean runnerLanes = store.db.read(() -> store.lanes.all().stream()
                .anyMatch(l -> l.runner() || l.runnerStateJson() != null));
        if (pending.isEmpty() && !runnerLanes) {
            return;
        }
        List<Job> running = store.db.read(() -> store.jobs.inStates(List.of(JobState.RUNNING)));
        List<NodeRecord> nodeRows = store.db.read(store.nodes::all);
        // Batch partitions place jobs themselves: the planner sees the workstations only, the burst rule the partitions.
        List<ServerConfig> workstations = new ArrayList<>();
        Map<String, ConfiguredNode.BatchPartition> partitions = new LinkedHashMap<>();
        for (ConfiguredNode n : nodes.nodes()) {
            if (n instanceof ConfiguredNode.BatchPartition b) {
                partitions.put(b.name(), b);
            } else if (n instanceof ConfiguredNode.Workstation w) {
                workstations.add(w.server());
            }
        }
        PlacementPlanner planner = new PlacementPlanner(config.settings(), placementPolicy(), nodeRows, workstations,
                store.db.read(() -> store.gpus.all(config.settings().headroomMb())), running);
        LabSettings lab = config.settings().lab();
        Map<String, FairShare.Standing> standings = fairShare(lab, pending, running);
        // Fair share's order made once with each job's factor looked up once; the round's sort then
        // only confirms it (a sorted list costs one comparison a job).
        List<Job> ordered = standings.isEmpty() ? pending : FairShare.sorted(pending, standings);
        DispatchRound round = new DispatchRound(ordered, running, DependencyGatePass.dependencies(store, pending),
                planner, SweepLimits.read(store, pending, running), UserQuotas.read(lab, pending, running),
                standings.isEmpty() ? PlacementPlanner.ORDER : FairShare.order(standings));
        if (runnerLanes) {
            staging.run(round, homes, summary); // lane jobs a runner takes are never the free pool's
        }
        lanes.run(round, summary);
        Map<Long, BatchJob> rows = store.db.read(store.batch::active);
        BurstRule burst = partitions.isEmpty() ? null : new BurstRule(nodeRows, partitions, held(rows, pending,
                running), config.settings().burstAfter());
        pool.run(round, burst, rows, standings, summary);
        recordWaits(round);
    }

    /**
     * The standing of each user when fair share has a choice to make: it is on and jobs of more
     * than one user wait in the free pool. Empty otherwise (the plain order, and no read).
     */
    private Map<String, FairShare.Standing> fairShare(LabSettings lab, List<Job> pending, List<Job> running) {
        if (!lab.fairshare()) {
            return Map.of();
        }
        java.util.Set<String> waiting = new java.util.HashSet<>();
        for (Job j : pending) {
            if (j.lane() == null && !j.held()) {
                waiting.add(FairShare.userOf(j));
            }
        }
        if (waiting.size() < 2) {
            return Map.of();
        }
        Instant now = Times.now();
        Map<String, Double> usage = store.db.read(() -> FairShare.usage(store, lab, now));
        java.util.Set<String> active = new java.util.HashSet<>(waiting);
        running.forEach(j -> active.add(FairShare.userOf(j)));
        return FairShare.standings(usage, active, lab);
    }

    /** Records why each pending job waits, where that changed since the last pass (a start clears it). */
    private void recordWaits(DispatchRound round) {
        Map<Long, String> changed = new HashMap<>();
        for (Job j : round.pending()) {
            String now = round.waits().get(j.id());
            if (!java.util.Objects.equals(now, j.waitReason())) {
                changed.put(j.id(), now);
            }
        }
        if (!changed.isEmpty()) {
            store.db.write(() -> {
                store.lab.setWaitReasons(changed);
                return null;
            });
        }
    }

    /** The nvidb jobs each batch node holds: those it runs, and those submitted there that it keeps waiting. */
    private static Map<String, Integer> held(Map<Long, BatchJob> rows, List<Job> pending, List<Job> running) {
        Map<String, Integer> held = new HashMap<>();
        for (Job j : running) {
            if (j.node() != null) {
                held.merge(j.node(), 1, Integer::sum);
            }
        }
        for (Job j : pending) {
            BatchJob b = rows.get(j.id());
            if (b != null && j.node() != null && j.node().equals(b.node()) && b.submittedAs(j.runDir())) {
                held.merge(j.node(), 1, Integer::sum);
            }
        }
        return held;
    }

    private PlacementPolicy placementPolicy() {
        return plugins.require(PlacementPolicyFactory.class, PluginKind.PLACEMENT, config.settings().placement()).create();
    }
}
