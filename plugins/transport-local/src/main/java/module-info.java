/**
 * The {@code local} transport: runs a node's scripts with {@code sh} on this machine, for the queue
 * host's own GPUs. Nothing is exported; core finds it through {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.transport.local {
    requires nvidb.spi;

    provides nvidb.spi.transport.TransportFactory with nvidb.plugins.transport.local.LocalTransportFactory;
}
