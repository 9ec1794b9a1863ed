package nvidb.core.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.PluginKind;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.transport.TransportFactory;

/**
 * The {@code servers:} entries of the configuration: core reads its own keys of each and hands the
 * entry to the plugins it names, which check theirs (see {@link ConfigLoader}).
 */
final class ServerEntries {
    private final PluginRegistry plugins;

    ServerEntries(PluginRegistry plugins) {
        this.plugins = plugins;
    }

    List<ServerConfig> read(ConfigValue v, QueueSettings settings, String localJobRoot) {
        List<ServerConfig> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        if (v != null && v.value() != null) {
            if (!v.isList()) {
                throw v.error("servers", "must be a list of server entries (each starting with '- ')");
            }
            int i = 0;
            for (ConfigValue entry : v.list()) {
                ServerConfig server = server(new ConfigSection("servers[" + i + "]", entry));
                if (!names.add(server.name())) {
                    throw entry.error("servers[" + i + "]", "repeats the node name '" + server.name()
                            + "'; give each server its own nickname");
                }
                out.add(server);
                i++;
            }
        }
        if (settings.includeLocal() && names.add(settings.localNodeName())) {
            out.add(new ServerConfig(settings.localNodeName(), "localhost", 0, null, null,
                    new NodeKind.Workstation("local"), null, "nvidia-smi", localJobRoot, Map.of()));
        }
        return out;
    }

    /**
     * Core's keys of a server entry; the plugins it names check the rest: its transport, or its
     * batch scheduler and its login's transport, and its probe.
     */
    private ServerConfig server(ConfigSection m) {
        String transport = m.string("transport", "ssh");
        Set<String> either = new TreeSet<>(plugins.names(PluginKind.TRANSPORT));
        either.addAll(plugins.names(PluginKind.BATCH_SCHEDULER));
        ConfigLoader.requireName(either, m, "transport", transport);
        String host = ConfigLoader.either(m, "hostname", "host");
        int port = m.integer("port", 22, 1);
        String user = ConfigLoader.either(m, "username", "user");
        String nick = ConfigLoader.either(m, "nickname", "description");
        String name = nick != null && !nick.isBlank() ? nick
                : (user != null ? user + "@" : "") + (host == null ? "localhost" : host) + ":" + port;
        if (m.contains("gpus") && m.contains("gpu_ids")) {
            throw m.error("gpu_ids", "and gpus: are the same setting; keep only gpus:");
        }
        List<Integer> gpuIds = gpuList(m, m.contains("gpus") ? "gpus" : "gpu_ids");
        NodeKind kind = kind(m, transport);
        // The transport that carries the node's scripts checks its own keys of the entry (hostname…).
        Optional<TransportFactory> transportPlugin = plugins.find(TransportFactory.class, PluginKind.TRANSPORT,
                kind.transport());
        transportPlugin.ifPresent(f -> f.validate(m));
        String probe = m.string("probe", null);
        ConfigLoader.requireName(plugins.names(PluginKind.PROBE), m, "probe", probe);
        Optional<ProbeFactory> probePlugin = probe == null ? Optional.empty()
                : plugins.find(ProbeFactory.class, PluginKind.PROBE, probe);
        probePlugin.ifPresent(f -> f.validate(m));
        m.know("nvidia_smi", "job_root");
        // Only plugins that were found can vouch for their keys: the rest is a mistake. (An entry
        // without probe: gets its probe at run time; the built-in probes take no keys of their own.
        // A batch partition's scheduler was found, or it would be a workstation.)
        if (transportPlugin.isPresent() && (probe == null || probePlugin.isPresent())) {
            m.requireKnownKeys();
        }
        Map<String, Object> options = new LinkedHashMap<>(m.plain());
        options.values().removeIf(Objects::isNull);
        return new ServerConfig(name, host, port, user, gpuIds, kind, probe,
                m.string("nvidia_smi", "nvidia-smi"), m.string("job_root", null), options);
    }

    /**
     * A {@code transport:} that names a batch scheduler makes the node a batch partition: core then
     * reads {@code login:}, the transport to the batch system's login host (ssh unless written),
     * and the scheduler checks its own keys.
     */
    private NodeKind kind(ConfigSection m, String transport) {
        Optional<BatchSchedulerFactory> scheduler = plugins.find(BatchSchedulerFactory.class,
                PluginKind.BATCH_SCHEDULER, transport);
        if (scheduler.isEmpty()) {
            return new NodeKind.Workstation(transport);
        }
        String login = m.string("login", "ssh");
        ConfigLoader.requireName(plugins.names(PluginKind.TRANSPORT), m, "login", login);
        scheduler.get().validate(m);
        return new NodeKind.BatchPartition(transport, login);
    }

    private static List<Integer> gpuList(ConfigSection m, String name) {
        ConfigValue v = m.value(name).orElse(null);
        if (v == null || v.value() == null) {
            return null;
        }
        String key = m.key(name);
        if (!v.isList()) {
            throw v.error(key, "must be a list of GPU indices such as [0, 1], not " + v.describe());
        }
        List<Integer> ids = new ArrayList<>();
        for (ConfigValue item : v.list()) {
            if (!(item.value() instanceof Long l) || l < 0 || l > Integer.MAX_VALUE) {
                throw item.error(key, "must list GPU indices as whole numbers ≥ 0, not " + item.describe());
            }
            ids.add(l.intValue());
        }
        return ids;
    }
}
