package nvidb.spi.transport;

import java.util.Map;
import java.util.Optional;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.config.ConfigSection;

/** Opens transports to nodes; {@code transport: NAME} on a server entry selects one. */
public interface TransportFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.TRANSPORT;
    }

    /**
     * Checks the transport's own keys of a server entry that selects it, when configuration
     * loads, so a mistake stops every command at start with the file, line and key. Core reads
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

    /**
     * The transport this one reaches its node through, by name, when the node is not a machine
     * nvidb runs scripts on but a system behind one (a batch system's login node): core checks
     * the entry with that transport's {@link #validate} too, opens it, and hands it to
     * {@link #open(NodeAddress, Transport)}. The default: none.
     *
     * @param entry the server entry's keys as written
     */
    default Optional<String> login(Map<String, Object> entry) {
        return Optional.empty();
    }

    /**
     * Opens a transport to a node reached through {@code login} (see {@link #login}). The
     * default ignores it and opens as {@link #open(NodeAddress)} does.
     */
    default Transport open(NodeAddress address, Transport login) {
        return open(address);
    }

    /**
     * The node's own scheduler, for a node that places jobs itself (a Slurm partition): core
     * then submits jobs to it instead of starting them. The default: none, an ordinary node.
     */
    default Optional<BatchScheduler> batchScheduler(NodeAddress address) {
        return Optional.empty();
    }
}
