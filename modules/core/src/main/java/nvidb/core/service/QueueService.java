package nvidb.core.service;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.model.Lease;
import nvidb.core.model.TickSummary;
import nvidb.core.node.NodeConnections;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.scheduler.NodeKills;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.Json;
import nvidb.core.store.Store;
import nvidb.core.util.Times;

/**
 * The one door from the command line into the queue: opens the store, keeps the configured nodes
 * recorded, runs ticks, and hands out the command and query objects. Each of their methods is one
 * user-visible operation: it validates, writes in one transaction, and says what happened.
 */
public final class QueueService implements AutoCloseable {
    static final String NODES_SIGNATURE = "nodes_signature";

    private final NvidbPaths paths;
    private final QueueConfig config;
    private final PluginRegistry plugins;
    private final Store store;
    private final NodeConnections nodes;
    private final Scheduler scheduler;
    private final ServiceContext context;

    private QueueService(NvidbPaths paths, QueueConfig config, PluginRegistry plugins, Map<String, String> env,
                         Store store) {
        this.paths = paths;
        this.config = config;
        this.plugins = plugins;
        this.store = store;
        this.nodes = new NodeConnections(config, plugins);
        this.scheduler = new Scheduler(store, config, plugins, nodes);
        this.context = new ServiceContext(store, config, env, nodes, new JobLifecycle(store), new NodeKills(nodes),
                new OperationLease(store, scheduler), this::tick);
    }

    public static QueueService open(NvidbPaths paths, QueueConfig config, PluginRegistry plugins,
                                    Map<String, String> env) {
        Store store = Store.open(paths.database());
        QueueService service = new QueueService(paths, config, plugins, env, store);
        try {
            service.syncConfiguredNodes();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return service;
    }

    public NvidbPaths paths() {
        return paths;
    }

    public QueueConfig config() {
        return config;
    }

    public PluginRegistry plugins() {
        return plugins;
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


    public TickSummary tick(TickMode mode) {
        return switch (mode) {
            case NONE -> TickSummary.disabled();
            case AUTO -> scheduler.tick(false);
            case FORCE -> scheduler.tick(true);
        };
    }

    public Optional<Lease> tickLease() {
        return store.db.read(() -> store.leases.get(Scheduler.LEASE));
    }

    public Instant lastTickAt() {
        return store.db.read(() -> store.meta.get("last_tick_at").map(Times::parse).orElse(null));
    }

    /** Resolves a typed node name against every node the database knows. */
    public String resolveKnownNode(String typed) {
        return context.resolveNode(typed);
    }

    /** Submitting, cancelling, requeueing, releasing and purging jobs; acknowledging alerts. */
    public JobCommands jobCommands() {
        return new JobCommands(context);
    }

    /** A job's note, result, priority, dispatch slot and dependencies. */
    public JobEdits jobEdits() {
        return new JobEdits(context);
    }

    /** Jobs, events, alerts, counts and job logs. */
    public JobQueries jobQueries() {
        return new JobQueries(context);
    }

    /** The nodes view; draining, resuming, ignoring and bringing back a node. */
    public NodeAdmin nodeAdmin() {
        return new NodeAdmin(context);
    }

    /** Listing and showing lanes (one transaction each, no node contact). */
    public LaneQueries laneQueries() {
        return new LaneQueries(context);
    }

    /** Reordering lanes and what they may run (one transaction each, no node contact). */
    public LaneOrdering laneOrdering() {
        return new LaneOrdering(context);
    }

    /** A lane's runner on its node: its status, switching it on or off, stopping or restarting it. */
    public LaneRunners laneRunners() {
        return new LaneRunners(context);
    }

    @Override
    public void close() {
        nodes.close();
        store.close();
    }
}
