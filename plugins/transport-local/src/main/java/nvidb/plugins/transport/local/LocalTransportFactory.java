package nvidb.plugins.transport.local;

import java.util.Objects;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportFactory;

/** {@code transport: local}: the node is this machine; no connection, just a child {@code sh}. */
public final class LocalTransportFactory implements TransportFactory {

    @Override
    public String name() {
        return "local";
    }

    @Override
    public Transport open(NodeAddress address) {
        Objects.requireNonNull(address, "address");
        return new LocalTransport(address.name());
    }
}
