package nvidb.core.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * How a client reaches core: where this process's queue lives, which plugins it has, and the open
 * queue. Each is worked out on first use and kept. Core implements it behind {@link Provider},
 * found with {@link ServiceLoader}: this package is what core publishes, so it names nothing
 * inside core, and core's own packages may depend on it without a cycle.
 */
public interface QueueAccess extends AutoCloseable {
    /** Opens access for this process. */
    interface Provider {
        /**
         * @param env         the environment ({@code NVIDB_HOME}, {@code NVIDB_DB}, …)
         * @param dbPath      {@code --db-path}, or null
         * @param local       {@code --local}: use this machine's queue even where the configuration
         *                    names a queue host ({@code remote:}); so does {@code NVIDB_QUEUE_NO_REMOTE}
         *                    in {@code env}
         * @param sitePlugins the site plugins found for a given nvidb home (the plugin host's job)
         */
        QueueAccess open(Map<String, String> env, String dbPath, boolean local,
                         Function<Path, List<PluginEntry>> sitePlugins);
    }

    /** @see Provider#open */
    static QueueAccess open(Map<String, String> env, String dbPath, boolean local,
                            Function<Path, List<PluginEntry>> sitePlugins) {
        Provider provider = ServiceLoader.load(Provider.class, QueueAccess.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("nvidb core is missing from the module path"));
        return provider.open(env, dbPath, local, sitePlugins);
    }

    /** The nvidb home ({@code NVIDB_HOME}, else {@code ~/.nvidb}). */
    Path home();

    /** Where this machine's queue database is, or would be: nothing is opened or created. */
    Path database();

    /** Every plugin: the built-in ones and the site plugins, each once. */
    List<PluginEntry> plugins();

    /**
     * The queue host this machine's configuration names ({@code remote:}), unless access was
     * opened {@code local}: where it is present, a client forwards its command there and opens no
     * queue of its own. Cheap: it reads the configuration files only when they mention
     * {@code remote}, and no plugin; a broken configuration is a usage error.
     */
    Optional<RemoteSettings> queueHost();

    /** Who this process submits as: {@code $NVIDB_SUBMITTER}, else {@code user@host:pid}. */
    String submitter();

    /**
     * The queue, opened with the configuration; a broken configuration is a usage error. Where
     * the configuration names a queue host ({@code remote:}) and access was not opened {@code
     * local}, it refuses ({@link ErrorCode#UNAVAILABLE}) before opening anything: such a command
     * belongs on the queue host (the CLI forwards it there first), and acting on this machine's
     * queue instead would put jobs where their submitter does not look for them.
     */
    Queue queue();

    /**
     * The queue daemon of this database, registered at once: refused ({@link ErrorCode#CONFLICT},
     * the message naming the running daemon's pid) while another daemon serves it. Refused like
     * {@link #queue()} where the configuration names a queue host.
     *
     * @param interval the longest time between two passes
     * @param once     make one pass and register nothing (a cron job's {@code --once})
     */
    Daemon daemon(java.time.Duration interval, boolean once);

    /**
     * The keeper of this machine's queue (nothing is opened until it is asked something). Refused
     * like {@link #queue()} where the configuration names a queue host: that host keeps the queue.
     */
    Keeper keeper();

    /**
     * Checks what a queue host needs to work, as {@code nvidb doctor} reports it: the configuration
     * parses, the database passes {@code quick_check}, free space for it and its backups, each
     * node answers (in parallel, within the probe timeout) with a writable job root, its GPUs and
     * a clock near this one, something keeps the queue moving, the newest backup is recent. A
     * check that cannot run because an earlier one failed is left out. Never throws for what it
     * finds.
     */
    java.util.List<HealthCheck> doctor();

    /**
     * Gives back every lease this process holds (the scheduler lease of a pass or of an
     * operation), each on a database connection of its own, and refuses new ones from then on.
     * Safe from any thread, while the thread that took them is still working: it is what a
     * shutdown hook calls on SIGINT or SIGTERM, so that others need not wait for the lease's expiry.
     */
    void releaseLeases();

    @Override
    void close();
}
