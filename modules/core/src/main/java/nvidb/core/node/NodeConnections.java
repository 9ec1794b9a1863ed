package nvidb.core.node;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import nvidb.core.config.NodeKind;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.PluginKind;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.probe.ProbeSettings;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;
import nvidb.spi.transport.TransportFactory;

/**
 * The nodes of this process's configuration, reached through their transport plugins. One
 * transport per node, opened on first use and reused for every round trip of a command (of every
 * pass, in the daemon: its SSH sessions stay open between passes), closed with this object. Safe to use from several threads (nodes are probed in parallel).
 */
public final class NodeConnections implements AutoCloseable {
    static final String DEFAULT_PROBE = "nvidia-smi";
    static final String WSL_PROBE = "wsl";

    private final QueueConfig config;
    private final PluginRegistry plugins;
    private final Map<String, Transport> open = new ConcurrentHashMap<>();
    private final Map<String, Optional<ConfiguredNode>> nodes = new ConcurrentHashMap<>();
    private final Reconnects reconnects;

    public NodeConnections(QueueConfig config, PluginRegistry plugins) {
        this(config, plugins, false);
    }

    /**
     * @param longLived the queue serves many passes (the daemon): a node whose round trips fail is
     *                  tried again with backoff (see {@link Reconnects}), not on every pass
     */
    public NodeConnections(QueueConfig config, PluginRegistry plugins, boolean longLived) {
        this.config = config;
        this.plugins = plugins;
        this.reconnects = longLived ? new Reconnects() : null;
    }

    public Optional<ServerConfig> server(String node) {
        return config.servers().stream().filter(s -> s.name().equals(node)).findFirst();
    }

    public List<ServerConfig> servers() {
        return config.servers();
    }

    /** Runs a script on a node; a node no longer configured cannot be reached. */
    public ExecResult run(String node, String script, Duration timeout, boolean idempotent) throws TransportException {
        ServerConfig server = server(node).orElseThrow(
                () -> new TransportException("node " + node + " is no longer configured, so nvidb cannot reach it"));
        Transport t = open.computeIfAbsent(node, n -> open(server));
        if (reconnects == null) {
            return t.run(script, timeout, idempotent);
        }
        String refused = reconnects.refusal(node, Instant.now());
        if (refused != null) {
            throw new TransportException(refused);
        }
        try {
            ExecResult result = t.run(script, timeout, idempotent);
            reconnects.succeeded(node);
            return result;
        } catch (TransportException e) {
            reconnects.failed(node, e.getMessage(), Instant.now());
            throw e;
        }
    }

    /**
     * Opens a node's transport: a workstation's own, or the one to a batch partition's login host,
     * where its batch scheduler's scripts run.
     */
    private Transport open(ServerConfig server) {
        String transport = server.kind().transport();
        return plugins.require(TransportFactory.class, PluginKind.TRANSPORT, transport).open(address(server));
    }

    private static NodeAddress address(ServerConfig server) {
        return new NodeAddress(server.name(), server.hostname(), server.port(), server.username(), server.options());
    }

    /**
     * A configured node as a workstation or a batch partition (with its batch scheduler, made once
     * per node); empty for a node no longer configured.
     */
    public Optional<ConfiguredNode> node(String name) {
        // An if chain, not a pattern switch: every command that reaches a node comes here (StartupRules).
        return nodes.computeIfAbsent(name, n -> server(n).map(s -> s.kind() instanceof NodeKind.BatchPartition b
                ? new ConfiguredNode.BatchPartition(s, plugins.require(BatchSchedulerFactory.class,
                        PluginKind.BATCH_SCHEDULER, b.scheduler()).create(s.options()))
                : new ConfiguredNode.Workstation(s)));
    }

    /** Every configured node, in configuration order. */
    public List<ConfiguredNode> nodes() {
        return config.servers().stream().map(s -> node(s.name()).orElseThrow()).toList();
    }

    /** The batch scheduler of a batch partition; empty for a workstation, and for a node no longer configured. */
    public Optional<BatchScheduler> batch(String node) {
        return node(node).flatMap(n -> n instanceof ConfiguredNode.BatchPartition b
                ? Optional.of(b.scheduler()) : Optional.empty());
    }

    /** The job root on a node: the server's {@code job_root}, else {@code queue.job_root}. */
    public String jobRoot(String node) {
        return server(node).map(ServerConfig::jobRoot).filter(r -> r != null && !r.isBlank())
                .orElse(config.settings().jobRoot());
    }

    /** The probe whose script a pass sends to a node (the configured one, else nvidia-smi). */
    public Probe scriptProbe(String node) {
        ServerConfig s = server(node).orElseThrow();
        String name = s.probe() != null ? s.probe() : DEFAULT_PROBE;
        return probe(name, s);
    }

    /** The probe that reads a node's answer: the configured one, else wsl on a WSL kernel. */
    public Probe parseProbe(String node, String kernel) {
        ServerConfig s = server(node).orElseThrow();
        String name = s.probe() != null ? s.probe()
                : kernel != null && kernel.toLowerCase(java.util.Locale.ROOT).contains("microsoft")
                && plugins.find(ProbeFactory.class, PluginKind.PROBE, WSL_PROBE).isPresent() ? WSL_PROBE : DEFAULT_PROBE;
        return probe(name, s);
    }

    private Probe probe(String name, ServerConfig s) {
        return plugins.require(ProbeFactory.class, PluginKind.PROBE, name)
                .create(new ProbeSettings(s.nvidiaSmi() == null ? "nvidia-smi" : s.nvidiaSmi()));
    }

    @Override
    public void close() {
        open.values().forEach(Transport::close);
        open.clear();
    }
}
