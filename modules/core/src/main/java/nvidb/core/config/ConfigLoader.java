package nvidb.core.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.error.NvidbException;
import nvidb.core.util.Sizes;

/**
 * Reads {@code config.yml} and {@code queue.yml} into one {@link QueueConfig}. Every mistake is
 * a usage error naming the file, the line and the key, and nothing else happens.
 *
 * <p>Precedence (reference §5.1): queue.yml's {@code servers} (or {@code nodes}) replace
 * config.yml's; queue.yml's {@code queue} keys override config.yml's one by one, with
 * {@code notify} merged one level deeper; queue.yml's {@code remote} wins.
 */
public final class ConfigLoader {
    private static final Set<String> QUEUE_KEYS = Set.of("headroom_mb", "max_jobs_per_gpu", "max_cpu_jobs_per_node",
            "placement", "default_vram", "tick_min_interval", "lock_ttl", "probe_timeout", "launch_timeout",
            "job_root", "include_local", "local_node_name", "lane_spool_root", "lane_lookahead",
            "lane_poll_interval", "lane_idle_exit", "backup", "notify", "remote");
    private static final Set<String> BACKUP_KEYS = Set.of("enabled", "interval_hours", "keep", "directory");
    private static final Set<String> REMOTE_KEYS = Set.of("host", "hostname", "port", "username", "user", "nvidb",
            "nvidb_home", "keeper", "ssh_options");
    private static final Set<String> AUTH = Set.of("auto", "key", "password");
    private static final Set<String> HOST_KEY_CHECK = Set.of("strict", "accept-new", "off");

    private final Set<String> placementNames;
    private final Set<String> transportNames;
    private final Set<String> probeNames;

    /**
     * @param placementNames names {@code queue.placement} may take
     * @param transportNames names a server's {@code transport:} may take
     * @param probeNames     names a server's {@code probe:} may take
     */
    public ConfigLoader(Set<String> placementNames, Set<String> transportNames, Set<String> probeNames) {
        this.placementNames = Set.copyOf(placementNames);
        this.transportNames = Set.copyOf(transportNames);
        this.probeNames = Set.copyOf(probeNames);
    }

    public QueueConfig load(NvidbPaths paths) {
        Map<String, YamlValue> config = YamlFiles.readMapping(paths.configFile());
        Map<String, YamlValue> queue = YamlFiles.readMapping(paths.queueFile());

        YamlValue servers = queue.containsKey("servers") ? queue.get("servers")
                : queue.containsKey("nodes") ? queue.get("nodes") : config.get("servers");

        Map<String, YamlValue> settings = new LinkedHashMap<>();
        YamlValue notify = null;
        for (Map<String, YamlValue> file : List.of(config, queue)) {
            YamlValue q = file.get("queue");
            if (q == null || q.value() == null) {
                continue;
            }
            requireMap(q, "queue");
            for (Map.Entry<String, YamlValue> e : q.map().entrySet()) {
                if (e.getKey().equals("notify") && notify != null && notify.isMap() && e.getValue().isMap()) {
                    Map<String, YamlValue> merged = new LinkedHashMap<>(notify.map());
                    merged.putAll(e.getValue().map());
                    notify = new YamlValue(merged, e.getValue().file(), e.getValue().line());
                } else if (e.getKey().equals("notify")) {
                    notify = e.getValue();
                }
                settings.put(e.getKey(), e.getValue());
            }
        }
        if (notify != null) {
            settings.put("notify", notify);
        }
        YamlValue remote = queue.containsKey("remote") ? queue.get("remote") : settings.get("remote");
        if (remote == null && queue.isEmpty()) {
            remote = config.get("remote");
        }
        QueueSettings s = settings(settings);
        // With no servers and no word on include_local, the queue host is the node: the embedded default.
        boolean noServers = servers == null || servers.value() == null
                || (servers.isList() && servers.list().isEmpty());
        if (noServers && !settings.containsKey("include_local")) {
            s = s.withIncludeLocal(true);
        }
        // The queue host's own node keeps its job directories beside the queue, unless job_root says otherwise.
        String localJobRoot = settings.containsKey("job_root") ? null : paths.home().resolve("jobs").toString();
        List<ServerConfig> nodes = servers(servers, s, localJobRoot);
        return new QueueConfig(s, nodes, remote(remote));
    }

    private QueueSettings settings(Map<String, YamlValue> q) {
        for (Map.Entry<String, YamlValue> e : q.entrySet()) {
            if (!QUEUE_KEYS.contains(e.getKey())) {
                throw error(e.getValue(), "queue." + e.getKey(), "is not a known setting (known: "
                        + String.join(", ", new TreeSet<>(QUEUE_KEYS)) + ")");
            }
        }
        QueueSettings d = QueueSettings.defaults();
        String placement = string(q.get("placement"), "queue.placement", d.placement());
        if (!placementNames.isEmpty() && !placementNames.contains(placement)) {
            throw error(q.get("placement"), "queue.placement", "must be one of "
                    + String.join(", ", new TreeSet<>(placementNames)) + ", not '" + placement + "'");
        }
        return new QueueSettings(
                size(q.get("headroom_mb"), "queue.headroom_mb", d.headroomMb()),
                integer(q.get("max_jobs_per_gpu"), "queue.max_jobs_per_gpu", d.maxJobsPerGpu(), 1),
                integer(q.get("max_cpu_jobs_per_node"), "queue.max_cpu_jobs_per_node", d.maxCpuJobsPerNode(), 0),
                placement,
                size(q.get("default_vram"), "queue.default_vram", d.defaultVramMb()),
                number(q.get("tick_min_interval"), "queue.tick_min_interval", d.tickMinInterval()),
                integer(q.get("lock_ttl"), "queue.lock_ttl", d.lockTtl(), 1),
                integer(q.get("probe_timeout"), "queue.probe_timeout", d.probeTimeout(), 1),
                integer(q.get("launch_timeout"), "queue.launch_timeout", d.launchTimeout(), 1),
                string(q.get("job_root"), "queue.job_root", d.jobRoot()),
                bool(q.get("include_local"), "queue.include_local", d.includeLocal()),
                string(q.get("local_node_name"), "queue.local_node_name", d.localNodeName()),
                string(q.get("lane_spool_root"), "queue.lane_spool_root", d.laneSpoolRoot()),
                integer(q.get("lane_lookahead"), "queue.lane_lookahead", d.laneLookahead(), 1),
                number(q.get("lane_poll_interval"), "queue.lane_poll_interval", d.lanePollInterval()),
                integer(q.get("lane_idle_exit"), "queue.lane_idle_exit", d.laneIdleExit(), 0),
                backup(q.get("backup"), d.backup()),
                notify(q.get("notify")));
    }

    private QueueSettings.BackupSettings backup(YamlValue v, QueueSettings.BackupSettings d) {
        if (v == null || v.value() == null) {
            return d;
        }
        if (v.value() instanceof Boolean b) {
            return new QueueSettings.BackupSettings(b, d.intervalHours(), d.keep(), d.directory());
        }
        requireMap(v, "queue.backup");
        for (Map.Entry<String, YamlValue> e : v.map().entrySet()) {
            if (!BACKUP_KEYS.contains(e.getKey())) {
                throw error(e.getValue(), "queue.backup." + e.getKey(), "is not a known setting (known: "
                        + String.join(", ", new TreeSet<>(BACKUP_KEYS)) + ")");
            }
        }
        Map<String, YamlValue> m = v.map();
        double hours = number(m.get("interval_hours"), "queue.backup.interval_hours", d.intervalHours());
        if (hours < 0) {
            throw error(m.get("interval_hours"), "queue.backup.interval_hours", "must not be negative");
        }
        return new QueueSettings.BackupSettings(
                bool(m.get("enabled"), "queue.backup.enabled", d.enabled()), hours,
                integer(m.get("keep"), "queue.backup.keep", d.keep(), 0),
                string(m.get("directory"), "queue.backup.directory", d.directory()));
    }

    private Map<String, Object> notify(YamlValue v) {
        Map<String, Object> out = new LinkedHashMap<>(QueueSettings.NotifySettings.DEFAULTS);
        if (v == null || v.value() == null) {
            return out;
        }
        if (v.value() instanceof Boolean b) {
            out.put("enabled", b);
            return out;
        }
        requireMap(v, "queue.notify");
        for (Map.Entry<String, YamlValue> e : v.map().entrySet()) {
            String key = "queue.notify." + e.getKey();
            switch (e.getKey()) {
                case "enabled", "desktop", "log" -> out.put(e.getKey(), bool(e.getValue(), key, true));
                case "min_severity" -> {
                    String sev = string(e.getValue(), key, "warning");
                    if (!sev.equals("warning") && !sev.equals("error")) {
                        throw error(e.getValue(), key, "must be warning or error, not '" + sev + "'");
                    }
                    out.put("min_severity", sev);
                }
                case "command" -> out.put("command", string(e.getValue(), key, null));
                default -> out.put(e.getKey(), e.getValue().plain());
            }
        }
        return out;
    }

    private RemoteSettings remote(YamlValue v) {
        if (v == null || v.value() == null) {
            return null;
        }
        requireMap(v, "remote");
        Map<String, YamlValue> m = v.map();
        for (Map.Entry<String, YamlValue> e : m.entrySet()) {
            if (!REMOTE_KEYS.contains(e.getKey())) {
                throw error(e.getValue(), "remote." + e.getKey(), "is not a known setting (known: "
                        + String.join(", ", new TreeSet<>(REMOTE_KEYS)) + ")");
            }
        }
        String host = string(m.containsKey("host") ? m.get("host") : m.get("hostname"), "remote.host", null);
        if (host == null || host.isBlank()) {
            return null;
        }
        YamlValue portValue = m.get("port");
        Integer port = portValue == null ? null : integer(portValue, "remote.port", 22, 1);
        String user = string(m.containsKey("username") ? m.get("username") : m.get("user"), "remote.username", null);
        YamlValue keeper = m.get("keeper");
        boolean ensure = true;
        if (keeper != null && keeper.value() != null) {
            Object k = keeper.value();
            if (k instanceof Boolean b) {
                ensure = b;
            } else if (k instanceof String str) {
                if (!str.equals("ensure") && !str.equals("off")) {
                    throw error(keeper, "remote.keeper", "must be ensure or off, not '" + str + "'");
                }
                ensure = str.equals("ensure");
            } else {
                throw error(keeper, "remote.keeper", "must be ensure or off");
            }
        }
        return new RemoteSettings(host, port, user, string(m.get("nvidb"), "remote.nvidb", "nvidb"),
                string(m.get("nvidb_home"), "remote.nvidb_home", null), ensure,
                stringList(m.get("ssh_options"), "remote.ssh_options"));
    }

    private List<ServerConfig> servers(YamlValue v, QueueSettings settings, String localJobRoot) {
        List<ServerConfig> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        if (v != null && v.value() != null) {
            if (!v.isList()) {
                throw error(v, "servers", "must be a list of server entries (each starting with '- ')");
            }
            int i = 0;
            for (YamlValue entry : v.list()) {
                ServerConfig server = server(entry, i++);
                if (!names.add(server.name())) {
                    throw error(entry, "servers[" + (i - 1) + "]", "repeats the node name '" + server.name()
                            + "'; give each server its own nickname");
                }
                out.add(server);
            }
        }
        if (settings.includeLocal() && names.add(settings.localNodeName())) {
            out.add(new ServerConfig(settings.localNodeName(), "localhost", 0, null, null, "local", null,
                    "nvidia-smi", localJobRoot, Map.of()));
        }
        return out;
    }

    private ServerConfig server(YamlValue entry, int index) {
        String at = "servers[" + index + "]";
        requireMap(entry, at);
        Map<String, YamlValue> m = entry.map();
        String transport = string(m.get("transport"), at + ".transport", "ssh");
        if (!transportNames.isEmpty() && !transportNames.contains(transport)) {
            throw error(m.get("transport"), at + ".transport", "must be one of "
                    + String.join(", ", new TreeSet<>(transportNames)) + ", not '" + transport + "'");
        }
        String host = string(m.containsKey("hostname") ? m.get("hostname") : m.get("host"), at + ".hostname", null);
        if ((host == null || host.isBlank()) && !transport.equals("local")) {
            throw error(entry, at + ".hostname", "is missing: an ssh server needs a hostname (or transport: local)");
        }
        int port = integer(m.get("port"), at + ".port", 22, 1);
        String user = string(m.containsKey("username") ? m.get("username") : m.get("user"), at + ".username", null);
        String nick = string(m.containsKey("nickname") ? m.get("nickname") : m.get("description"), at + ".nickname", null);
        String name = nick != null && !nick.isBlank() ? nick
                : (user != null ? user + "@" : "") + (host == null ? "localhost" : host) + ":" + port;
        if (m.containsKey("gpus") && m.containsKey("gpu_ids")) {
            throw error(m.get("gpu_ids"), at + ".gpu_ids", "and gpus: are the same setting; keep only gpus:");
        }
        YamlValue gpusValue = m.containsKey("gpus") ? m.get("gpus") : m.get("gpu_ids");
        String gpusKey = at + (m.containsKey("gpus") ? ".gpus" : ".gpu_ids");
        List<Integer> gpuIds = gpuList(gpusValue, gpusKey);
        String auth = string(m.get("auth"), at + ".auth", "auto");
        if (!AUTH.contains(auth)) {
            throw error(m.get("auth"), at + ".auth", "must be auto, key or password, not '" + auth + "'");
        }
        if (auth.equals("password") && string(m.get("password"), at + ".password", null) == null) {
            throw error(m.get("auth"), at + ".auth", "is password but the entry has no password:");
        }
        // YAML reads an unquoted `off` as the boolean false: that is the setting off.
        String hostKeyCheck = m.get("host_key_check") != null && Boolean.FALSE.equals(m.get("host_key_check").value())
                ? "off" : string(m.get("host_key_check"), at + ".host_key_check", "strict");
        if (!HOST_KEY_CHECK.contains(hostKeyCheck)) {
            throw error(m.get("host_key_check"), at + ".host_key_check",
                    "must be strict, accept-new or off, not '" + hostKeyCheck + "'");
        }
        String probe = string(m.get("probe"), at + ".probe", null);
        if (probe != null && !probeNames.isEmpty() && !probeNames.contains(probe)) {
            throw error(m.get("probe"), at + ".probe", "must be one of "
                    + String.join(", ", new TreeSet<>(probeNames)) + ", not '" + probe + "'");
        }
        Map<String, Object> options = new LinkedHashMap<>();
        for (Map.Entry<String, YamlValue> e : m.entrySet()) {
            if (e.getValue().value() != null) {
                options.put(e.getKey(), e.getValue().plain());
            }
        }
        options.put("auth", auth);
        options.put("host_key_check", hostKeyCheck);
        return new ServerConfig(name, host, port, user, gpuIds, transport, probe,
                string(m.get("nvidia_smi"), at + ".nvidia_smi", "nvidia-smi"),
                string(m.get("job_root"), at + ".job_root", null), options);
    }

    private static List<Integer> gpuList(YamlValue v, String key) {
        if (v == null || v.value() == null) {
            return null;
        }
        if (!v.isList()) {
            throw error(v, key, "must be a list of GPU indices such as [0, 1], not " + YamlFiles.describe(v));
        }
        List<Integer> ids = new ArrayList<>();
        for (YamlValue item : v.list()) {
            if (!(item.value() instanceof Long l) || l < 0 || l > Integer.MAX_VALUE) {
                throw error(item, key, "must list GPU indices as whole numbers ≥ 0, not " + YamlFiles.describe(item));
            }
            ids.add(l.intValue());
        }
        return ids;
    }

    private static void requireMap(YamlValue v, String key) {
        if (!v.isMap()) {
            throw error(v, key, "must be a mapping of keys, not " + YamlFiles.describe(v));
        }
    }

    private static NvidbException error(YamlValue at, String key, String problem) {
        String where = at == null ? "configuration" : "configuration " + at.where();
        return NvidbException.usage(where + ": " + key + " " + problem);
    }

    private static String string(YamlValue v, String key, String dflt) {
        if (v == null || v.value() == null) {
            return dflt;
        }
        if (v.isMap() || v.isList()) {
            throw error(v, key, "must be a single value, not a " + YamlFiles.describe(v));
        }
        return String.valueOf(v.value());
    }

    private static List<String> stringList(YamlValue v, String key) {
        if (v == null || v.value() == null) {
            return List.of();
        }
        if (!v.isList()) {
            throw error(v, key, "must be a list, not " + YamlFiles.describe(v));
        }
        return v.list().stream().map(item -> string(item, key, "")).toList();
    }

    private static boolean bool(YamlValue v, String key, boolean dflt) {
        if (v == null || v.value() == null) {
            return dflt;
        }
        if (v.value() instanceof Boolean b) {
            return b;
        }
        throw error(v, key, "must be true or false, not " + YamlFiles.describe(v));
    }

    private static int integer(YamlValue v, String key, int dflt, int min) {
        if (v == null || v.value() == null) {
            return dflt;
        }
        if (v.value() instanceof Long l && l >= min && l <= Integer.MAX_VALUE) {
            return l.intValue();
        }
        throw error(v, key, "must be a whole number ≥ " + min + ", not " + YamlFiles.describe(v));
    }

    private static double number(YamlValue v, String key, double dflt) {
        if (v == null || v.value() == null) {
            return dflt;
        }
        if (v.value() instanceof Number n && n.doubleValue() >= 0) {
            return n.doubleValue();
        }
        throw error(v, key, "must be a number ≥ 0, not " + YamlFiles.describe(v));
    }

    private static long size(YamlValue v, String key, long dflt) {
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
                throw error(v, key, "must be a size such as 512M or 20G, not '" + s + "'");
            }
        }
        throw error(v, key, "must be a size such as 512M or 20G, not " + YamlFiles.describe(v));
    }
}
