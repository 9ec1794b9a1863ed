package nvidb.core.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.RemoteSettings;
import nvidb.core.api.Sizes;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.config.ConfigException;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;

/**
 * Reads {@code config.yml} and {@code queue.yml} into one {@link QueueConfig}. Every mistake is
 * a usage error naming the file, the line and the key, and nothing else happens.
 *
 * <p>Core reads its own keys only. A server entry is handed to the transport plugin it selects
 * (and to the probe it names), and {@code queue.notify} to every alert sink, to check their keys;
 * their {@link ConfigException} becomes the same usage error. A key that neither core nor those
 * plugins read or declared is an error too (a typo is never silently a default), unless no plugin
 * of that kind is installed to vouch for its keys.
 *
 * <p>Precedence (reference §5.1): queue.yml's {@code servers} (or {@code nodes}) replace
 * config.yml's; queue.yml's {@code queue} keys override config.yml's one by one, with
 * {@code notify} merged one level deeper; queue.yml's {@code remote} wins.
 */
public final class ConfigLoader {
    private static final Set<String> QUEUE_KEYS = Set.of("headroom_mb", "max_jobs_per_gpu", "max_cpu_jobs_per_node",
            "placement", "default_vram", "tick_min_interval", "lock_ttl", "probe_timeout", "launch_timeout",
            "job_root", "include_local", "local_node_name", "lane_spool_root", "lane_lookahead",
            "lane_poll_interval", "lane_idle_exit", "burst_after", "backup", "notify", "remote", "web", "admins");
    private static final Set<String> BACKUP_KEYS = Set.of("enabled", "interval_hours", "keep", "directory");
    /** config.yml's top level; queue.yml also takes {@code nodes} for {@code servers}. */
    private static final Set<String> CONFIG_FILE_KEYS = Set.of("servers", "queue", "remote");
    /**
     * config.yml is also the file of the reference nvidb's GPU monitor, which keeps its own blocks
     * there (the TUI rewrites {@code view:} on a key press): the queue reads neither, and a
     * config.yml the reference reads must not stop every command.
     */
    private static final Set<String> MONITOR_KEYS = Set.of("basic", "view");
    private static final Set<String> QUEUE_FILE_KEYS = Set.of("servers", "nodes", "queue", "remote");
    private static final Set<String> REMOTE_KEYS = Set.of("host", "hostname", "port", "username", "user", "nvidb",
            "nvidb_home", "keeper", "ssh_options");

    private final PluginRegistry plugins;

    /**
     * @param plugins the plugins whose names {@code queue.placement}, a server's {@code transport:}
     *                and {@code probe:} may take, and which check their own keys; a kind with no
     *                plugin at all leaves its names unchecked
     */
    public ConfigLoader(PluginRegistry plugins) {
        this.plugins = plugins;
    }

    public QueueConfig load(NvidbPaths paths) {
        try {
            return read(paths);
        } catch (ConfigException e) {
            throw new NvidbException(ErrorCode.USAGE, e.getMessage(), e);
        }
    }

    private QueueConfig read(NvidbPaths paths) {
        ConfigSection config = withoutMonitorBlocks(YamlFiles.readMapping(paths.configFile()));
        ConfigSection queue = YamlFiles.readMapping(paths.queueFile());
        config.requireKnownKeys(CONFIG_FILE_KEYS);
        queue.requireKnownKeys(QUEUE_FILE_KEYS);

        ConfigValue servers = queue.value("servers").or(() -> queue.value("nodes"))
                .orElse(config.value("servers").orElse(null));

        Map<String, ConfigValue> settings = new LinkedHashMap<>();
        ConfigValue notify = null;
        for (ConfigSection file : List.of(config, queue)) {
            ConfigValue q = file.value("queue").orElse(null);
            if (q == null || q.value() == null) {
                continue;
            }
            ConfigSection block = new ConfigSection("queue", q); // refuses a queue: that is not a mapping
            for (Map.Entry<String, ConfigValue> e : block.source().mapping().entrySet()) {
                if (e.getKey().equals("notify") && notify != null && notify.isMapping() && e.getValue().isMapping()) {
                    Map<String, ConfigValue> merged = new LinkedHashMap<>(notify.mapping());
                    merged.putAll(e.getValue().mapping());
                    notify = new ConfigValue(merged, e.getValue().file(), e.getValue().line());
                } else if (e.getKey().equals("notify")) {
                    notify = e.getValue();
                }
                settings.put(e.getKey(), e.getValue());
            }
        }
        if (notify != null) {
            settings.put("notify", notify);
        }
        for (ConfigSection file : List.of(config, queue)) {
            requireRemoteKeys(file.value("remote").orElse(null), "remote");
            file.value("queue").filter(ConfigValue::isMapping)
                    .ifPresent(q -> requireRemoteKeys(q.mapping().get("remote"), "queue.remote"));
        }
        ConfigValue remote = queue.value("remote").orElse(settings.get("remote"));
        if (remote == null && queue.keys().isEmpty()) {
            remote = config.value("remote").orElse(null);
        }
        // Both files' queue: keys in one section; each value still names its own file and line.
        ConfigSection q = new ConfigSection("queue", new ConfigValue(settings, null, 0));
        QueueSettings s = settings(q);
        // With no servers and no word on include_local, the queue host is the node: the embedded default.
        boolean noServers = servers == null || servers.value() == null
                || (servers.isList() && servers.list().isEmpty());
        if (noServers && !q.contains("include_local")) {
            s = s.withIncludeLocal(true);
        }
        // The queue host's own node keeps its job directories beside the queue, unless job_root says otherwise.
        String localJobRoot = q.contains("job_root") ? null : paths.home().resolve("jobs").toString();
        List<ServerConfig> nodes = new ServerEntries(plugins).read(servers, s, localJobRoot);
        return new QueueConfig(s, nodes, remote(remote));
    }

    private static ConfigSection withoutMonitorBlocks(ConfigSection file) {
        if (file.keys().stream().noneMatch(MONITOR_KEYS::contains)) {
            return file;
        }
        Map<String, ConfigValue> rest = new LinkedHashMap<>(file.source().mapping());
        rest.keySet().removeAll(MONITOR_KEYS);
        return new ConfigSection(file.path(), new ConfigValue(rest, file.source().file(), file.source().line()));
    }

    private QueueSettings settings(ConfigSection q) {
        Set<String> known = new java.util.HashSet<>(QUEUE_KEYS);
        known.addAll(LearningKeys.KEYS);
        known.addAll(LabKeys.KEYS);
        q.requireKnownKeys(known);
        QueueSettings d = QueueSettings.defaults();
        String placement = q.string("placement", d.placement());
        requireName(PluginKind.PLACEMENT, q, "placement", placement);
        return new QueueSettings(
                size(q, "headroom_mb", d.headroomMb()),
                q.integer("max_jobs_per_gpu", d.maxJobsPerGpu(), 1),
                q.integer("max_cpu_jobs_per_node", d.maxCpuJobsPerNode(), 0),
                placement,
                LearningKeys.defaultAuto(q) ? d.defaultVramMb() : size(q, "default_vram", d.defaultVramMb()),
                q.number("tick_min_interval", d.tickMinInterval()),
                q.integer("lock_ttl", d.lockTtl(), 0), // a floor: the lease lasts 60 s at least anyway
                q.integer("probe_timeout", d.probeTimeout(), 1),
                q.integer("launch_timeout", d.launchTimeout(), 1),
                q.string("job_root", d.jobRoot()),
                q.bool("include_local", d.includeLocal()),
                q.string("local_node_name", d.localNodeName()),
                q.string("lane_spool_root", d.laneSpoolRoot()),
                q.integer("lane_lookahead", d.laneLookahead(), 0), // at least the lane's concurrency anyway
                q.number("lane_poll_interval", d.lanePollInterval()),
                q.integer("lane_idle_exit", d.laneIdleExit(), 0),
                q.integer("burst_after", d.burstAfter(), 0),
                backup(q.value("backup").orElse(null), d.backup()),
                notify(q.value("notify").orElse(null)),
                web(q.value("web").orElse(null)),
                LearningKeys.read(q),
                accounts(q, "admins"),
                LabKeys.read(q));
    }

    /**
     * {@code queue.web.listen}: where the daemon serves the web pages ({@code HOST:PORT}), or null
     * for none. Only the shape is checked here; binding it is the web server's business.
     */
    private static String web(ConfigValue v) {
        if (v == null || v.value() == null) {
            return null;
        }
        ConfigSection m = new ConfigSection("queue.web", v);
        m.requireKnownKeys(Set.of("listen"));
        String listen = m.string("listen", null);
        if (listen != null && !listen.matches(".+:[0-9]{1,5}")) {
            throw m.error("listen", "must be HOST:PORT, such as 127.0.0.1:8765, not '" + listen + "'");
        }
        return listen;
    }

    /** A plugin name must name an installed plugin of its kind (any name goes when none is installed). */
    private void requireName(PluginKind kind, ConfigSection section, String key, String name) {
        requireName(plugins.names(kind), section, key, name);
    }

    /** {@code name} must be one of {@code names}, unless there are none to choose from. */
    static void requireName(Set<String> names, ConfigSection section, String key, String name) {
        if (name != null && !names.isEmpty() && !names.contains(name)) {
            // A default name no plugin answers to was written nowhere: the error names no line.
            throw new ConfigException(section.value(key).orElse(null), section.key(key), "must be one of "
                    + String.join(", ", new TreeSet<>(names)) + ", not '" + name + "'");
        }
    }

    private static QueueSettings.BackupSettings backup(ConfigValue v, QueueSettings.BackupSettings d) {
        if (v == null || v.value() == null) {
            return d;
        }
        if (v.value() instanceof Boolean b) {
            return new QueueSettings.BackupSettings(b, d.intervalHours(), d.keep(), d.directory());
        }
        ConfigSection m = new ConfigSection("queue.backup", v);
        m.requireKnownKeys(BACKUP_KEYS);
        // number() refuses a negative interval; 0 backs up after every daemon pass (as the reference does),
        // and keep: 0 keeps every generated backup.
        return new QueueSettings.BackupSettings(m.bool("enabled", d.enabled()), m.number("interval_hours", d.intervalHours()),
                m.integer("keep", d.keep(), 0), m.string("directory", d.directory()));
    }

    /**
     * Core's own keys of {@code queue.notify} ({@code enabled}, {@code min_severity}); every other
     * key is passed on as written, for the alert sink it belongs to, which checks it here.
     */
    private Map<String, Object> notify(ConfigValue v) {
        Map<String, Object> out = new LinkedHashMap<>(QueueSettings.NotifySettings.DEFAULTS);
        if (v != null && v.value() instanceof Boolean b) {
            out.put("enabled", b);
            return out;
        }
        ConfigSection m = v == null || v.value() == null ? ConfigSection.empty("queue.notify")
                : new ConfigSection("queue.notify", v);
        out.putAll(m.plain());
        out.put("enabled", m.bool("enabled", true));
        out.put("min_severity", m.oneOf("min_severity", "warning", "warning", "error"));
        List<AlertSinkFactory> sinks = plugins.allOf(AlertSinkFactory.class, PluginKind.ALERT_SINK);
        for (AlertSinkFactory sink : sinks) {
            sink.validate(m);
        }
        if (!sinks.isEmpty()) {
            m.requireKnownKeys();
        }
        return out;
    }

    /** A remote: block's keys are checked even where another block wins and this one is not read. */
    private static void requireRemoteKeys(ConfigValue v, String path) {
        if (v != null && v.isMapping()) {
            new ConfigSection(path, v).requireKnownKeys(REMOTE_KEYS);
        }
    }

    private static RemoteSettings remote(ConfigValue v) {
        if (v == null || v.value() == null) {
            return null;
        }
        ConfigSection m = new ConfigSection("remote", v);
        m.requireKnownKeys(REMOTE_KEYS);
        String host = either(m, "host", "hostname");
        if (host == null || host.isBlank()) {
            return null;
        }
        // A port: written empty is the default port; no port: at all leaves ssh's own choice.
        Integer port = m.contains("port") ? m.integer("port", 22, 1) : null;
        String user = either(m, "username", "user");
        ConfigValue keeper = m.value("keeper").orElse(null);
        boolean ensure = true;
        if (keeper != null && keeper.value() != null) {
            Object k = keeper.value();
            if (k instanceof Boolean b) {
                ensure = b;
            } else if (k instanceof String) {
                ensure = m.oneOf("keeper", null, "ensure", "off").equals("ensure");
            } else {
                throw m.error("keeper", "must be ensure or off");
            }
        }
        return new RemoteSettings(host, port, user, m.string("nvidb", "nvidb"), m.string("nvidb_home", null), ensure,
                stringList(m, "ssh_options"), v.file() + ", line " + v.line());
    }

    /** A list of OS account names ({@code queue.admins}): each a non-empty name without spaces. */
    private static List<String> accounts(ConfigSection m, String name) {
        List<String> names = stringList(m, name);
        for (String n : names) {
            if (n.isBlank() || n.chars().anyMatch(Character::isWhitespace)) {
                throw m.error(name, "must be a list of OS account names such as [alice, bob], not '" + n + "'");
            }
        }
        return names;
    }

    private static List<String> stringList(ConfigSection m, String name) {
        ConfigValue v = m.value(name).orElse(null);
        if (v == null || v.value() == null) {
            return List.of();
        }
        if (!v.isList()) {
            throw v.error(m.key(name), "must be a list, not " + v.describe());
        }
        return v.list().stream().map(item -> item.string(m.key(name), "")).toList();
    }

    /** A key with an older spelling: the value of {@code key}, else of {@code alias}; errors name {@code key}. */
    static String either(ConfigSection m, String key, String alias) {
        m.know(key, alias);
        return m.value(key).or(() -> m.value(alias)).map(v -> v.string(m.key(key), null)).orElse(null);
    }

    private static long size(ConfigSection m, String name, long dflt) {
        ConfigValue v = m.value(name).orElse(null);
        if (v == null || v.value() == null) {
            return dflt;
        }
        if (v.value() instanceof Long l && l >= 0) {
            return l;
        }
        if (v.value() instanceof String s) {
            try {
                return Sizes.parseMb(s);
            } catch (NvidbException e) {
                throw v.error(m.key(name), "must be a size such as 512M or 20G" + (name.equals("default_vram") ? ", or auto" : "")
                        + ", not '" + s + "'");
            }
        }
        throw v.error(m.key(name), "must be a size such as 512M or 20G, not " + v.describe());
    }
}
