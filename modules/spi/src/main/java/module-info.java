/**
 * The plugin API of nvidb: five kinds of plugin (probe, transport, placement policy, alert sink,
 * batch scheduler), each with a factory whose {@code name()} configuration refers to, and the
 * configuration section a factory checks its own keys in. A batch scheduler ({@code nvidb.spi.batch})
 * makes a server entry a partition of a batch system (Slurm) rather than a workstation; it runs
 * nothing itself, core runs its shell functions over a transport to the batch system's login host.
 * JDK only, on purpose: a site plugin compiled against this module must keep working across core
 * releases.
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
