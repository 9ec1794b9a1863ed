package nvidb.spi.transport;

import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.config.ConfigSection;

/**
 * Opens transports to nodes; {@code transport: NAME} on a server entry selects one (and
 * {@code login: NAME} on a batch node's entry the one to its login host, see
 * {@link nvidb.spi.batch.BatchSchedulerFactory}).
 */
public interface TransportFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.TRANSPORT;
    }

    /**
     * Checks the transport's own keys of a server entry that selects it (with {@code transport:},
     * or a batch node's with {@code login:}), when configuration loads, so a mistake stops every command at start with the file, line and key. Core reads
     * the entry's common keys itself (transport, hostname, port, username, nickname, gpus, probe,
     * nvidia_smi, job_root, and their older spellings) and knows none of the transport's: the
     * transport reads, or declares with {@link ConfigSection#know}, every key of its own, and a key
     * that neither core nor the transport (nor the entry's probe) knows is then refused. The
     * default checks nothing and knows no key.
     *
     * @param server the whole entry as written, its path {@code servers[N]}
     * @throws nvidb.spi.config.ConfigException a key of this transport is wrong or missing
     */
    default void validate(ConfigSection server) {
    }

    /**
     * Opens (lazily, if it likes) a transport to one node. {@code address.options()} holds the
     * entry's keys as {@link #validate} saw them.
     */
    Transport open(NodeAddress address);
}
