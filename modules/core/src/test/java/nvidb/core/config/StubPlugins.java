package nvidb.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import nvidb.core.api.PluginEntry;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
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

    /** spread and pack, ssh and local, nvidia-smi and wsl, and one alert sink, all accepting everything. */
    static PluginRegistry builtinNames() {
        return registry(section -> { });
    }

    /** The same names; every transport, probe and sink hands its section to {@code check}. */
    static PluginRegistry registry(Consumer<ConfigSection> check) {
        List<PluginEntry> entries = new ArrayList<>();
        for (String placement : List.of("spread", "pack")) {
            entries.add(new PluginEntry(new Stub(placement, PluginKind.PLACEMENT, check), "test"));
        }
        for (String transport : List.of("ssh", "local")) {
            entries.add(new PluginEntry(new Stub(transport, PluginKind.TRANSPORT, check), "test"));
        }
        for (String probe : List.of("nvidia-smi", "wsl")) {
            entries.add(new PluginEntry(new Stub(probe, PluginKind.PROBE, check), "test"));
        }
        entries.add(new PluginEntry(new Stub("log", PluginKind.ALERT_SINK, check), "test"));
        return PluginRegistry.of(entries);
    }

    /** One factory of every kind; the registry files it under {@code kind}. */
    private record Stub(String name, PluginKind kind, Consumer<ConfigSection> check)
            implements TransportFactory, ProbeFactory, AlertSinkFactory, PlacementPolicyFactory {

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
    }
}
