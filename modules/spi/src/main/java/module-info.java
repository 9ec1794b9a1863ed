/**
 * The plugin API of nvidb: four kinds of plugin (probe, transport, placement policy, alert sink),
 * each with a factory whose {@code name()} configuration refers to, and the configuration section
 * a factory checks its own keys in; and the batch scheduler a transport may offer for a node that
 * places jobs itself (a Slurm partition). JDK only, on purpose: a site plugin compiled against this
 * module must keep working across core releases.
 */
module nvidb.spi {
    exports nvidb.spi;
    exports nvidb.spi.config;
    exports nvidb.spi.probe;
    exports nvidb.spi.transport;
    exports nvidb.spi.placement;
    exports nvidb.spi.alert;
    exports nvidb.spi.batch;
}
