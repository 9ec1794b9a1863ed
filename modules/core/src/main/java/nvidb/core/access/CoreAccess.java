package nvidb.core.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import nvidb.core.api.Daemon;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Keeper;
import nvidb.core.api.NvidbException;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.Queue;
import nvidb.core.api.QueueAccess;
import nvidb.core.api.RemoteSettings;
import nvidb.core.config.ConfigLoader;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.daemon.DaemonLoop;
import nvidb.core.health.Doctor;
import nvidb.core.keeper.KeeperService;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.queue.QueueService;
import nvidb.core.store.LeaseRepository;
import nvidb.core.util.Submitter;

/** Core's side of {@link QueueAccess}: paths, then plugins, then configuration and the queue, each on first use. */
public final class CoreAccess implements QueueAccess {
    /** What {@link java.util.ServiceLoader} finds. */
    public static final class Provider implements QueueAccess.Provider {
        @Override
        public QueueAccess open(Map<String, String> env, String dbPath, boolean local,
                                Function<Path, List<PluginEntry>> sitePlugins) {
            return new CoreAccess(env, dbPath, local, sitePlugins);
        }
    }

    /** Set (non-empty) on the queue host for a forwarded command, and by a user: this machine's queue. */
    static final String NO_REMOTE = "NVIDB_QUEUE_NO_REMOTE";

    private final Map<String, String> env;
    private final String dbPath;
    private final boolean local;
    private final Function<Path, List<PluginEntry>> sitePlugins;
    private NvidbPaths paths;
    private PluginRegistry plugins;
    private QueueConfig config;
    private QueueService queue;

    private CoreAccess(Map<String, String> env, String dbPath, boolean local,
                       Function<Path, List<PluginEntry>> sitePlugins) {
        this.env = Map.copyOf(env);
        this.dbPath = dbPath;
        String noRemote = env.get(NO_REMOTE);
        this.local = local || (noRemote != null && !noRemote.isEmpty());
        this.sitePlugins = sitePlugins;
    }

    private NvidbPaths paths() {
        if (paths == null) {
            paths = VouchedLogin.checked(NvidbPaths.resolve(env, dbPath));
        }
        return paths;
    }

    private PluginRegistry registry() {
        if (plugins == null) {
            plugins = PluginRegistry.load(sitePlugins.apply(paths().home()));
        }
        return plugins;
    }

    @Override
    public Path home() {
        return paths().home();
    }

    @Override
    public Path database() {
        return paths().database();
    }

    @Override
    public List<PluginEntry> plugins() {
        return registry().all();
    }

    @Override
    public Optional<RemoteSettings> queueHost() {
        if (local || !(mentionsRemote(paths().configFile()) || mentionsRemote(paths().queueFile()))) {
            return Optional.empty();
        }
        // No plugin is loaded for this: a client that forwards runs none, and the keys only a
        // plugin can check are checked on the queue host, whose configuration uses them.
        return Optional.ofNullable(new ConfigLoader(PluginRegistry.of(List.of())).load(paths()).remote());
    }

    /** Whether a configuration file could name a queue host at all: most never do, and then no YAML is parsed. */
    private static boolean mentionsRemote(Path file) {
        try {
            return Files.isRegularFile(file) && Files.readString(file).contains("remote");
        } catch (IOException e) {
            return true; // not text, or unreadable: the loader says what is wrong with it
        }
    }

    @Override
    public String submitter() {
        return Submitter.of(env);
    }

    @Override
    public Queue queue() {
        if (queue == null) {
            queue = QueueService.open(paths(), config(), registry(), env);
        }
        return queue;
    }

    @Override
    public Daemon daemon(Duration interval, boolean once) {
        NvidbPaths p = paths();
        // The daemon reads the configuration again when its files change: each open loads it afresh.
        return DaemonLoop.start(() -> QueueService.open(p, checked(load()), registry(), env, true),
                List.of(p.configFile(), p.queueFile()), interval, once);
    }

    @Override
    public Keeper keeper() {
        config();
        return new KeeperService(paths().home(), paths().database(), env, () -> queue().daemon());
    }

    /** This process's configuration, read once; refused where it names a queue host. */
    private QueueConfig config() {
        if (config == null) {
            config = checked(load());
        }
        return config;
    }

    private QueueConfig load() {
        return new ConfigLoader(registry()).load(paths());
    }

    private QueueConfig checked(QueueConfig loaded) {
        if (loaded.remote() != null && !local) {
            throw refusal(loaded.remote());
        }
        return loaded;
    }

    private static NvidbException refusal(RemoteSettings remote) {
        return new NvidbException(ErrorCode.UNAVAILABLE, "the queue of this machine's configuration is on "
                + remote.host() + " (remote: in " + remote.origin() + "): run the command there (nvidb job and"
                + " nvidb queue forward themselves), or add --local to use this machine's own queue");
    }

    @Override
    public List<nvidb.core.api.HealthCheck> doctor() {
        return new Doctor(paths(), registry(), env, local).checks();
    }

    @Override
    public void releaseLeases() {
        LeaseRepository.releaseAllHeld();
    }

    @Override
    public void close() {
        if (queue != null) {
            queue.close();
        }
    }
}
