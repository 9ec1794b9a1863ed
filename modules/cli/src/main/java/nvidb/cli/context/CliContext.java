package nvidb.cli.context;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.cli.output.Output;
import nvidb.core.api.Daemon;
import nvidb.core.api.Keeper;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.QueueAccess;
import nvidb.core.api.RemoteSettings;
import nvidb.pluginhost.SitePlugins;

/**
 * What one command line works with, built on first use: a command that fails on its options
 * never opens the database, and one that needs no configuration never reads it.
 */
public final class CliContext implements AutoCloseable {
    private final Map<String, String> env;
    private final Output output;
    private final InputStream stdin;
    private final boolean ownsProcess;
    private String dbPath;
    private boolean local;
    private String queueHost;
    private volatile QueueAccess access; // read by the shutdown hook's thread
    private nvidb.core.app.Application app;
    /** The accesses opened for threads of their own ({@link #openAccess}), closed with this context. */
    private final List<QueueAccess> more = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A command line run inside another program (tests, embedders): empty stdin, the signals are not its own. */
    public CliContext(Map<String, String> env, Output output) {
        this(env, output, InputStream.nullInputStream(), false);
    }

    /**
     * @param stdin       what the command reads as its standard input
     * @param ownsProcess the command line is this process's only work ({@code main}): it may take
     *                    over SIGINT and SIGTERM, as forwarding does to relay them to the queue host
     */
    public CliContext(Map<String, String> env, Output output, InputStream stdin, boolean ownsProcess) {
        this.env = Map.copyOf(env);
        this.output = output;
        this.stdin = stdin;
        this.ownsProcess = ownsProcess;
    }

    public Output output() {
        return output;
    }

    public Map<String, String> env() {
        return env;
    }

    public InputStream stdin() {
        return stdin;
    }

    public boolean ownsProcess() {
        return ownsProcess;
    }

    /**
     * The queue host this command was forwarded to, as the client names it ({@code remote.host}),
     * or null where it runs against this machine's own queue as asked here.
     */
    public String queueHost() {
        return queueHost;
    }

    public void setQueueHost(String queueHost) {
        this.queueHost = queueHost;
    }

    /**
     * The queue host this machine's configuration names ({@code remote:}), read without opening
     * the queue or loading a plugin, and without keeping anything open: a command that turns out
     * local still opens its queue with the options picocli reads later.
     */
    public Optional<RemoteSettings> remoteQueue() {
        try (QueueAccess probe = QueueAccess.open(env, null, false, home -> List.of())) {
            return probe.queueHost();
        }
    }

    /** Who this process submits as ({@code $NVIDB_SUBMITTER}, else {@code user@host:pid}). */
    public String submitter() {
        return access().submitter();
    }

    public void setDbPath(String dbPath) {
        this.dbPath = dbPath;
    }

    /** {@code --local}: this machine's queue, even where the configuration names a queue host. */
    public void setLocal(boolean local) {
        this.local = local;
    }

    public boolean local() {
        return local;
    }

    public boolean debug() {
        return "1".equals(env.get("NVIDB_DEBUG"));
    }

    /** Core, reached through its one published package; opened on first use. */
    private QueueAccess access() {
        if (access == null) {
            access = newAccess();
        }
        return access;
    }

    private QueueAccess newAccess() {
        return QueueAccess.open(env, dbPath, local, home -> SitePlugins.load(pluginFolders(home)));
    }

    /**
     * Another access to this command line's queue, for a thread of its own (the web server's
     * requests); its leases are given back and it is closed with this context.
     */
    public QueueAccess openAccess() {
        QueueAccess another = newAccess();
        more.add(another);
        return another;
    }

    /** Built-in plugins plus site plugins from {@code $NVIDB_HOME/plugins} and the distribution's {@code plugins/}. */
    public List<PluginEntry> plugins() {
        return access().plugins();
    }

    private static List<Path> pluginFolders(Path home) {
        List<Path> folders = new java.util.ArrayList<>();
        folders.add(home.resolve("plugins"));
        String dist = System.getProperty("nvidb.dist.plugins");
        if (dist != null && !dist.isBlank()) {
            folders.add(Path.of(dist));
        }
        return folders;
    }

    /** The application layer over this command line's queue (opened on first use). */
    public nvidb.core.app.Application app() {
        if (app == null) {
            app = new nvidb.core.app.Application(access());
        }
        return app;
    }

    /** Who this command line asks as: this process's OS account, its submitter label, the CLI. */
    public nvidb.core.api.Caller caller() {
        return nvidb.core.api.Caller.of(nvidb.core.api.Caller.FrontEnd.CLI, submitter());
    }

    /**
     * Opens this command line's queue now, its configuration read: a command that takes over the
     * terminal or listens reports a broken configuration first, like every command's error.
     */
    public void open() {
        access().queue();
    }

    /** The nvidb home ({@code NVIDB_HOME}, else {@code ~/.nvidb}). */
    public Path home() {
        return access().home();
    }


    /** Where this machine's queue database is, or would be (nothing is opened). */
    public Path database() {
        return access().database();
    }

    /** The queue daemon of this database, registered (see {@link QueueAccess#daemon}). */
    public Daemon daemon(Duration interval, boolean once) {
        return access().daemon(interval, once);
    }

    /** The keeper of this machine's queue. */
    public Keeper keeper() {
        return access().keeper();
    }

    /** Gives back the leases this process holds; any thread, any time (see {@link QueueAccess#releaseLeases}). */
    public void releaseLeases() {
        QueueAccess opened = access;
        if (opened != null) {
            opened.releaseLeases();
        }
        more.forEach(QueueAccess::releaseLeases);
    }

    @Override
    public void close() {
        if (access != null) {
            access.close();
        }
        more.forEach(QueueAccess::close);
    }
}
