package nvidb.core.service;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import nvidb.core.api.Daemon;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Keeper;
import nvidb.core.api.NvidbException;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.Queue;
import nvidb.core.api.QueueAccess;
import nvidb.core.config.ConfigLoader;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.RemoteSettings;
import nvidb.core.keeper.KeeperService;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.store.LeaseRepository;

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
        this.local = local;
        this.sitePlugins = sitePlugins;
    }

    private NvidbPaths paths() {
        if (paths == null) {
            paths = NvidbPaths.resolve(env, dbPath);
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
    public List<PluginEntry> plugins() {
        return registry().all();
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
                + remote.host() + " (remote: in " + remote.origin() + "), and this version of nvidb cannot forward"
                + " commands there yet: run nvidb on " + remote.host() + ", or add --local to use this machine's own"
                + " queue");
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
