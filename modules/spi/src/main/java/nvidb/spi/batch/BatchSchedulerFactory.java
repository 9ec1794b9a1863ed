package nvidb.spi.batch;

import java.util.Map;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.config.ConfigSection;

/**
 * Creates the scheduler of a batch node: a server entry whose {@code transport:} names this
 * factory (as {@code transport: slurm} names the Slurm one) is a partition of a batch system,
 * which places the jobs nvidb hands it, not a workstation nvidb starts processes on. The key
 * keeps its name because it says how a job reaches the node; the name must then be no transport's.
 *
 * <p>A batch scheduler reaches nothing itself. Core opens an ordinary transport to the batch
 * system's login host, the one the entry's {@code login:} names ({@code ssh}, the default, or
 * {@code local}; core reads that key, and the transport checks its own keys of the entry, such as
 * {@code hostname}), and runs there, inside scripts of its own, the shell functions the
 * {@link BatchScheduler} writes.
 */
public interface BatchSchedulerFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.BATCH_SCHEDULER;
    }

    /**
     * Checks the scheduler's own keys of a server entry that selects it, when configuration loads,
     * so a mistake stops every command at start with the file, line and key. Core reads the entry's
     * common keys itself (those of {@link nvidb.spi.transport.TransportFactory#validate}, and
     * {@code login}) and the login transport its own; the scheduler reads, or declares with
     * {@link ConfigSection#know}, every key of its own, and a key no one knows is then refused.
     * The default checks nothing and knows no key.
     *
     * @param server the whole entry as written, its path {@code servers[N]}
     * @throws nvidb.spi.config.ConfigException a key of this scheduler is wrong or missing
     */
    default void validate(ConfigSection server) {
    }

    /**
     * The scheduler of one batch node.
     *
     * @param entry the server entry's keys as {@link #validate} saw them (keys written empty are absent)
     */
    BatchScheduler create(Map<String, Object> entry);
}
