package nvidb.core.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Backups;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobEdits;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Json;
import nvidb.core.api.LaneOrdering;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.LaneRunners;
import nvidb.core.api.Lease;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.Queue;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.backup.BackupService;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.delivery.AlertDeliveryPass;
import nvidb.core.jobs.JobCommandService;
import nvidb.core.jobs.JobEditService;
import nvidb.core.jobs.JobQueryService;
import nvidb.core.lanes.LaneOrderService;
import nvidb.core.lanes.LaneQueryService;
import nvidb.core.lanes.LaneRunnerService;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.NodeConnections;
import nvidb.core.nodes.NodeAdminService;
import nvidb.core.operation.OperationLease;
import nvidb.core.operation.ServiceContext;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.scheduler.NodeKills;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.DaemonRegistry;
import nvidb.core.store.Store;
import nvidb.core.sweeps.SweepService;
import nvidb.spi.alert.SinkContext;

/**
 * The one door from the command line into the queue: opens the store, keeps the configured nodes
 * recorded, runs ticks, and hands out the command and query objects. Each of their methods is one
 * user-visible operation: it validates, writes in one transaction, and says what happened.
 */
public final class QueueService implements Queue {
    static final String NODES_SIGNATURE = "nodes_signature";
    /** The skipped reason of a command's pass that a live daemon makes instead. */
    public static final String DAEMON_SKIP = "daemon";
    /** Why a read made no pass: this user may not write the database. */
    static final String READ_ONLY_SKIP = "read_only";

    private final NvidbPaths paths;
    private final QueueConfig config;
    private final Store store;
    private final NodeConnections nodes;
    private final Scheduler scheduler;
    private final ServiceContext context;
    private final DaemonRegistry daemons;

    private QueueService(NvidbPaths paths, QueueConfig config, PluginRegistry plugins, Map<String, String> env,
                         Store store, boolean longLived) {
        this.paths = paths;
        this.config = config;
        this.store = store;
        this.nodes = new NodeConnections(config, plugins, longLived);
        this.scheduler = new Scheduler(store, config, plugins, nodes,
                new AlertDeliveryPass(store, config, plugins, new SinkContext(paths.home())));
        this.daemons = new DaemonRegistry(store.db);
        this.context = new ServiceContext(store, config, env, nodes, new JobLifecycle(store), new NodeKills(nodes),
                new OperationLease(store, scheduler), this::tickAfterChange);
    }

    public static QueueService open(NvidbPaths paths, QueueConfig config, PluginRegistry plugins,
                                    Map<String, String> env) {
        return open(paths, config, plugins, env, false);
    }

    /**
     * @param longLived the queue makes many passes (the daemon): node connections are kept and a
     *                  failing node is tried again with backoff
     */
    public static QueueService open(NvidbPaths paths, QueueConfig config, PluginRegistry plugins,
                                    Map<String, String> env, boolean longLived) {
        Store store = Store.open(paths.database(), () -> BackupService.recovery(paths, config));
        QueueService service = new QueueService(paths, config, plugins, env, store, longLived);
        try {
            service.syncConfiguredNodes();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return service;
    }

    @Override
    public Info info() {
        return new Info(paths.database(), config.settings().headroomMb(), config.settings().maxJobsPerGpu(),
                config.settings().placement(), config.settings().webListen(), config.settings().admins(),
                config.settings().lab().fairshare());
    }

    /** Records the configured servers as nodes; written only when the configuration changed. */
    private void syncConfiguredNodes() {
        String signature = Json.write(config.servers().stream()
                .map(s -> List.of(s.name(), String.valueOf(s.hostname()), s.port(), String.valueOf(s.username())))
                .toList());
        String stored = store.db.read(() -> store.meta.get(NODES_SIGNATURE).orElse(null));
        if (signature.equals(stored)) {
            return;
        }
        store.db.write(() -> {
            int i = 0;
            for (ServerConfig s : config.servers()) {
                store.nodes.upsertConfigured(s.name(), s.hostname(), s.port(), s.username(), i++);
            }
            store.meta.put(NODES_SIGNATURE, signature);
            return null;
        });
    }


    /** A command's pass: its alert delivery gets {@link AlertDeliveryPass#COMMAND_BUDGET}, none while a daemon runs. */
    @Override
    public TickSummary tick(TickMode mode) {
        return switch (mode) {
            case NONE -> TickSummary.disabled();
            // A user who may only read the queue still reads it: the pass before a read would fail.
            case AUTO -> store.db.readOnly() ? TickSummary.skipped(READ_ONLY_SKIP, null)
                    : scheduler.tick(false, () -> alertBudget(AlertDeliveryPass.COMMAND_BUDGET));
            case FORCE -> scheduler.tick(true, () -> alertBudget(AlertDeliveryPass.COMMAND_BUDGET));
        };
    }

    @Override
    public TickSummary pass() {
        return scheduler.tick(true, () -> alertBudget(AlertDeliveryPass.FULL_BUDGET));
    }

    /** The registered daemon's pass: it delivers the alerts, with the full budget (none at all when not {@code notify}). */
    public TickSummary daemonPass(boolean notify) {
        return scheduler.tick(true, () -> notify ? AlertDeliveryPass.FULL_BUDGET : Duration.ZERO);
    }

    /** While a daemon serves the database, it alone delivers alerts: a pass of anyone else leaves them. */
    private Duration alertBudget(Duration budget) {
        return daemon().isPresent() ? Duration.ZERO : budget;
    }

    /**
     * The pass a command makes after its change: none while a queue daemon serves this database
     * (the change wakes it, and it makes that pass), else the one {@code mode} asks for. This is
     * the one place that decides it; reads refresh as {@link #tick} says, daemon or not.
     */
    private TickSummary tickAfterChange(TickMode mode) {
        if (mode != TickMode.NONE) {
            Optional<DaemonInfo> daemon = daemon();
            if (daemon.isPresent()) {
                return TickSummary.skipped(DAEMON_SKIP, daemon.get().describe());
            }
        }
        return tick(mode);
    }

    @Override
    public Optional<DaemonInfo> daemon() {
        return daemons.live(Instant.now());
    }

    /** The daemon registration of this database, on this queue's own connection (see {@link #dataVersion}). */
    public DaemonRegistry daemons() {
        return daemons;
    }

    /**
     * Changes whenever another process commits to the database; this queue's own writes (its
     * passes, the daemon's registration) leave it alone, so a daemon does not wake itself.
     */
    @Override
    public long dataVersion() {
        return store.db.dataVersion();
    }

    /** The configuration this queue was opened with. */
    public QueueConfig config() {
        return config;
    }

    @Override
    public Optional<Lease> tickLease() {
        return store.db.read(() -> store.leases.get(Scheduler.LEASE));
    }

    @Override
    public long lastTickMillis() {
        return store.db.read(() -> store.meta.get(Scheduler.LAST_TICK_MS).map(Long::parseLong).orElse(-1L));
    }

    @Override
    public Instant lastTickAt() {
        return store.db.read(() -> store.meta.get("last_tick_at").map(Times::parse).orElse(null));
    }


    @Override
    public JobCommands jobCommands() {
        return new JobCommandService(context);
    }

    @Override
    public JobEdits jobEdits() {
        return new JobEditService(context);
    }

    @Override
    public JobQueries jobQueries() {
        return new JobQueryService(context);
    }

    @Override
    public NodeAdmin nodeAdmin() {
        return new NodeAdminService(context);
    }

    @Override
    public LaneQueries laneQueries() {
        return new LaneQueryService(context);
    }

    @Override
    public LaneOrdering laneOrdering() {
        return new LaneOrderService(context);
    }

    @Override
    public LaneRunners laneRunners() {
        return new LaneRunnerService(context);
    }

    @Override
    public nvidb.core.api.Sweeps sweeps() {
        return new SweepService(context);
    }

    @Override
    public java.util.List<nvidb.core.api.UserStanding> users() {
        // As of the last pass, what fair share ordered by: two reads between passes agree.
        Instant at = lastTickAt();
        return store.db.read(() -> nvidb.core.lab.Standings.read(store, config.settings().lab(),
                at != null ? at : Times.now()));
    }

    @Override
    public nvidb.core.api.History history() {
        return new HistoryService(context);
    }

    @Override
    public nvidb.core.api.WebTokens webTokens() {
        return store.webTokens;
    }

    @Override
    public Backups backups() {
        return new BackupService(context, paths);
    }

    @Override
    public void close() {
        nodes.close();
        store.close();
    }
}
