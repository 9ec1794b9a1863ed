package nvidb.core.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.HealthCheck;
import nvidb.core.api.Keeper;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import nvidb.core.backup.BackupService;
import nvidb.core.config.ConfigLoader;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.QueueSettings;
import nvidb.core.config.ServerConfig;
import nvidb.core.keeper.KeeperService;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.queue.QueueService;
import nvidb.core.store.Snapshots;

/**
 * {@code nvidb doctor}: each thing a queue host needs, checked in the order a person would fix
 * them (configuration, database, disk, nodes, what keeps the queue moving, backups). What counts
 * as healthy is decided here, once: at least {@link #MIN_FREE_BYTES} free, backups no older than
 * twice {@code queue.backup.interval_hours} (a week where periodic backups are off), node clocks
 * within {@link NodeCheckup#MAX_CLOCK_SKEW}. And what is only advice, a warning rather than a
 * failure, because the queue works without it: a daemon where no keeper was installed (each
 * command makes its own pass), and a backup (none yet, or an old one). A keeper that was
 * installed and is down is a failure: what was set up no longer runs.
 */
public final class Doctor {
    /** Less free space than this where the database, its backups or job directories live fails. */
    static final long MIN_FREE_BYTES = 1L << 30;
    /** The oldest a newest backup may be while periodic backups are off. */
    static final Duration MAX_BACKUP_AGE = Duration.ofDays(7);

    private final NvidbPaths paths;
    private final PluginRegistry plugins;
    private final Map<String, String> env;
    private final boolean local;

    public Doctor(NvidbPaths paths, PluginRegistry plugins, Map<String, String> env, boolean local) {
        this.paths = paths;
        this.plugins = plugins;
        this.env = env;
        this.local = local;
    }

    public List<HealthCheck> checks() {
        List<HealthCheck> checks = new ArrayList<>();
        QueueConfig config;
        try {
            config = new ConfigLoader(plugins).load(paths);
        } catch (NvidbException e) {
            checks.add(HealthCheck.fail("configuration", e.getMessage(), "correct what it names in "
                    + paths.configFile() + " or " + paths.queueFile() + " (config-examples/ shows every key)"));
            return checks;
        }
        checks.add(HealthCheck.pass("configuration", configured(config)));
        if (config.remote() != null && !local) {
            return checks; // the queue is the queue host's: nvidb doctor checks that host instead
        }
        QueueService queue;
        try {
            queue = QueueService.open(paths, config, plugins, env);
        } catch (RuntimeException e) {
            checks.add(HealthCheck.fail("database", paths.database() + " does not open: " + e.getMessage(),
                    restoreFix(config)));
            return checks;
        }
        try (queue) {
            checks.add(database(config));
            SharedFolderCheck.of(paths.database()).ifPresent(checks::add);
            checks.add(freeSpace(config));
            Set<String> ignored = queue.nodeAdmin().nodes(true).stream().filter(v -> v.node().ignored())
                    .map(v -> v.node().name()).collect(Collectors.toSet());
            checks.addAll(NodeCheckup.all(config, plugins, ignored, MIN_FREE_BYTES));
            checks.add(keepsMoving(queue));
            checks.add(backup(queue, config));
        }
        return checks;
    }

    private String configured(QueueConfig config) {
        List<String> files = new ArrayList<>();
        for (Path f : List.of(paths.configFile(), paths.queueFile())) {
            if (Files.exists(f)) {
                files.add(f.toString());
            }
        }
        String nodes = config.servers().stream().map(ServerConfig::name).collect(Collectors.joining(", "));
        String where = files.isEmpty() ? "no configuration file, the defaults" : String.join(" and ", files) + " parse";
        if (config.remote() != null && !local) {
            return where + "; the queue is on " + config.remote().host() + " (remote:)";
        }
        return where + "; nodes: " + (nodes.isEmpty() ? "none" : nodes);
    }

    private HealthCheck database(QueueConfig config) {
        try {
            Snapshots.Inspection found = Snapshots.inspect(paths.database());
            if ("ok".equals(found.quickCheck())) {
                return HealthCheck.pass("database", paths.database() + ": quick_check ok, schema " + found.schemaVersion());
            }
            return HealthCheck.fail("database", paths.database() + " fails PRAGMA quick_check: " + found.quickCheck(),
                    restoreFix(config));
        } catch (NvidbException e) {
            return HealthCheck.fail("database", e.getMessage(), restoreFix(config));
        }
    }

    private String restoreFix(QueueConfig config) {
        return newestBackup(config).map(b -> "restore the newest backup: nvidb queue restore " + b)
                .orElse("move the file aside and start a new queue (no backup found in "
                        + BackupService.directory(paths, config) + ")");
    }

    private Optional<Path> newestBackup(QueueConfig config) {
        try (var files = Files.list(BackupService.directory(paths, config))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".db")).max(Path::compareTo);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Free space where the database and its backups live; job roots are checked on their nodes. */
    private HealthCheck freeSpace(QueueConfig config) {
        Map<String, Path> places = new LinkedHashMap<>();
        places.put("database", paths.database().toAbsolutePath().getParent());
        places.put("backups", BackupService.directory(paths, config).toAbsolutePath());
        List<String> found = new ArrayList<>();
        List<String> low = new ArrayList<>();
        for (Map.Entry<String, Path> e : places.entrySet()) {
            Path existing = e.getValue();
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            try {
                long free = existing == null ? 0 : Files.getFileStore(existing).getUsableSpace();
                String line = e.getKey() + " (" + e.getValue() + ") " + NodeCheckup.size(free) + " free";
                found.add(line);
                if (free < MIN_FREE_BYTES) {
                    low.add(line);
                }
            } catch (IOException ex) {
                low.add(e.getKey() + " (" + e.getValue() + "): " + ex.getMessage());
            }
        }
        if (low.isEmpty()) {
            return HealthCheck.pass("free space", String.join("; ", found));
        }
        return HealthCheck.fail("free space", "below " + NodeCheckup.size(MIN_FREE_BYTES) + ": " + String.join("; ", low),
                "free space there (old backups, finished jobs: nvidb job purge), or move the queue (--db-path,"
                        + " queue.backup.directory)");
    }

    private HealthCheck keepsMoving(QueueService queue) {
        Optional<DaemonInfo> daemon = queue.daemon();
        if (daemon.isPresent()) {
            return HealthCheck.pass("daemon", "a queue daemon serves the queue (" + daemon.get().describe() + ")");
        }
        Keeper.State keeper = new KeeperService(paths.home(), paths.database(), env, Optional::empty).state();
        if (keeper.up()) {
            return HealthCheck.pass("daemon", "the " + keeper.kind() + " keeper runs" + (keeper.pid() == null ? ""
                    : " (pid " + keeper.pid() + ")") + " and keeps a daemon running");
        }
        if (keeper.installed()) {
            // A keeper was set up to keep a daemon running and does not: something broke.
            return HealthCheck.fail("daemon", "nothing keeps the queue moving: no queue daemon, and the "
                    + keeper.kind() + " keeper is down; jobs start only when a command makes a pass",
                    "nvidb queue keeper ensure");
        }
        // A fresh install: the queue works, each command makes its pass; a daemon is advised.
        return HealthCheck.warn("daemon", "nothing keeps the queue moving: no queue daemon and no keeper; jobs"
                + " start only when a command makes a pass", "nvidb queue keeper install --start");
    }

    private HealthCheck backup(QueueService queue, QueueConfig config) {
        QueueSettings.BackupSettings settings = config.settings().backup();
        Duration maxAge = settings.enabled() ? Duration.ofSeconds(Math.round(2 * settings.intervalHours() * 3600))
                : MAX_BACKUP_AGE;
        String fix = "nvidb queue backup" + (settings.enabled() ? " (and keep a daemon running: it takes one every"
                + " queue.backup.interval_hours)" : "; queue.backup.enabled: true in queue.yml has the daemon take"
                + " one every interval_hours");
        Optional<Instant> last = queue.backups().lastBackupAt();
        // Advice: the queue works without a backup, it is only less safe.
        if (last.isEmpty()) {
            return HealthCheck.warn("backup", "no backup of this queue was taken yet", fix);
        }
        Duration age = Duration.between(last.get(), Instant.now());
        String detail = "the newest was taken " + Times.iso(last.get()) + ", " + NodeCheckup.duration(age) + " ago";
        if (age.compareTo(maxAge) > 0) {
            return HealthCheck.warn("backup", detail + ": older than " + NodeCheckup.duration(maxAge), fix);
        }
        return HealthCheck.pass("backup", detail);
    }
}
