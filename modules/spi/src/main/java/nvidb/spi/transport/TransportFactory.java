package nvidb.spi.transport;

import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;

/** Opens transports to nodes; {@code transport: NAME} on a server entry selects one. */
public interface TransportFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.TRANSPORT;
    }

    /** Opens (lazily, if it likes) a transport to one node. */
    Transport open(NodeAddress address);
}
