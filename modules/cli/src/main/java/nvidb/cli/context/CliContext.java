package nvidb.cli.context;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.cli.output.Output;
import nvidb.core.config.ConfigLoader;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.service.QueueService;
import nvidb.pluginhost.SitePlugins;

/**
 * What one command line works with, built on first use: a command that fails on its options
 * never opens the database, and one that needs no configuration never reads it.
 */
public final class CliContext implements AutoCloseable {
    private final Map<String, String> env;
    private final Output output;
    private String dbPath;
    private NvidbPaths paths;
    private PluginRegistry plugins;
    private QueueConfig config;
    private QueueService service;

    public CliContext(Map<String, String> env, Output output) {
        this.env = Map.copyOf(env);
        this.output = output;
    }

    public Output output() {
        return output;
    }

    public Map<String, String> env() {
        return env;
    }

    public void setDbPath(String dbPath) {
        this.dbPath = dbPath;
    }

    public boolean debug() {
        return "1".equals(env.get("NVIDB_DEBUG"));
    }

    public NvidbPaths paths() {
        if (paths == null) {
            paths = NvidbPaths.resolve(env, dbPath);
        }
        return paths;
    }

    /** Built-in plugins plus site plugins from {@code $NVIDB_HOME/plugins} and the distribution's {@code plugins/}. */
    public PluginRegistry plugins() {
        if (plugins == null) {
            plugins = PluginRegistry.load(SitePlugins.load(pluginFolders()));
        }
        return plugins;
    }

    public List<Path> pluginFolders() {
        List<Path> folders = new java.util.ArrayList<>();
        folders.add(paths().home().resolve("plugins"));
        String dist = System.getProperty("nvidb.dist.plugins");
        if (dist != null && !dist.isBlank()) {
            folders.add(Path.of(dist));
        }
        return folders;
    }

    public QueueConfig config() {
        if (config == null) {
            config = new ConfigLoader(plugins()).load(paths());
        }
        return config;
    }

    public QueueService service() {
        if (service == null) {
            service = QueueService.open(paths(), config(), plugins(), env);
        }
        return service;
    }

    @Override
    public void close() {
        if (service != null) {
            service.close();
        }
    }
}
