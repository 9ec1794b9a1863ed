package nvidb.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import nvidb.core.api.PluginEntry;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.probe.ProbeSettings;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportFactory;

/**
 * Plugins with the built-in plugins' names for the loader's tests (core cannot see the real
 * ones): they create nothing, and hand each section they are given to a check the test chooses.
 */
final class StubPlugins {
    private StubPlugins() {
    }

    /** The keys the real ssh transport reads or declares beyond core's (SshTransportFactory.validate). */
    static final List<String> SSH_KEYS = List.of("auth", "password", "identityfile", "identity_file",
            "identity_files", "proxyjump", "proxy_jump", "host_key_check", "known_hosts", "ssh_config",
            "connect_timeout", "home");
    /** The keys the real slurm batch scheduler reads or declares beyond core's (SlurmSettings.validate). */
    static final List<String> SLURM_KEYS = List.of("partition", "account", "qos", "constraint", "extra_args",
            "gpu_vram", "max_jobs", "burst", "gres", "slurm_timeout", "slurm_conf");
    /** The keys the real alert sinks read under queue.notify. */
    static final List<String> SINK_KEYS = List.of("log", "desktop", "command", "webhook");

    /**
     * spread and pack, ssh and local, nvidia-smi and wsl, one alert sink and the slurm batch
     * scheduler, checking nothing and knowing the keys the real plugins of those names know: ssh its
     * own, local and the probes none, the sink every built-in sink's, slurm its own.
     */
    static PluginRegistry builtinNames() {
        return registry(section -> { }, (kind, name) -> kind == PluginKind.TRANSPORT && name.equals("ssh") ? SSH_KEYS
                : kind == PluginKind.ALERT_SINK ? SINK_KEYS : kind == PluginKind.BATCH_SCHEDULER ? SLURM_KEYS
                : List.of());
    }

    /**
     * The same names; every transport, probe, sink and batch scheduler hands its section to
     * {@code check} and knows every key in it.
     */
    static PluginRegistry registry(Consumer<ConfigSection> check) {
        return registry(check.andThen(section -> section.know(section.keys().toArray(String[]::new))),
                (kind, name) -> List.of());
    }

    private static PluginRegistry registry(Consumer<ConfigSection> check,
                                           BiFunction<PluginKind, String, List<String>> keys) {
        List<PluginEntry> entries = new ArrayList<>();
        for (String placement : List.of("spread", "pack")) {
            entries.add(new PluginEntry(new Stub(placement, PluginKind.PLACEMENT, check), "test"));
        }
        for (String transport : List.of("ssh", "local")) {
            entries.add(new PluginEntry(new Stub(transport, PluginKind.TRANSPORT,
                    knowing(check, keys.apply(PluginKind.TRANSPORT, transport))), "test"));
        }
        for (String probe : List.of("nvidia-smi", "wsl")) {
            entries.add(new PluginEntry(new Stub(probe, PluginKind.PROBE,
                    knowing(check, keys.apply(PluginKind.PROBE, probe))), "test"));
        }
        entries.add(new PluginEntry(new Stub("log", PluginKind.ALERT_SINK,
                knowing(check, keys.apply(PluginKind.ALERT_SINK, "log"))), "test"));
        entries.add(new PluginEntry(new Stub("slurm", PluginKind.BATCH_SCHEDULER,
                knowing(check, keys.apply(PluginKind.BATCH_SCHEDULER, "slurm"))), "test"));
        return PluginRegistry.of(entries);
    }

    private static Consumer<ConfigSection> knowing(Consumer<ConfigSection> check, List<String> keys) {
        return check.andThen(section -> section.know(keys.toArray(String[]::new)));
    }

    /** One factory of every kind; the registry files it under {@code kind}. */
    private record Stub(String name, PluginKind kind, Consumer<ConfigSection> check)
            implements TransportFactory, ProbeFactory, AlertSinkFactory, PlacementPolicyFactory, BatchSchedulerFactory {

        @Override
        public void validate(ConfigSection section) {
            check.accept(section);
        }

        @Override
        public Transport open(NodeAddress address) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Probe create(ProbeSettings settings) {
            throw new UnsupportedOperationException();
        }

        @Override
        public AlertSink create(Map<String, Object> settings, SinkContext context) {
            throw new UnsupportedOperationException();
        }

        @Override
        public PlacementPolicy create() {
            throw new UnsupportedOperationException();
        }

        @Override
        public BatchScheduler create(Map<String, Object> entry) {
            throw new UnsupportedOperationException();
        }
    }
}
