/**
 * Loads site plugins: jars dropped into a plugin folder, each packaged for pf4j (manifest
 * attributes) and each given its own class loader that shares only {@code nvidb.spi} with the
 * application. Factories are found with {@link java.util.ServiceLoader}, so a plugin needs no
 * pf4j type and the SPI never imports pf4j.
 */
module nvidb.pluginhost {
    // PluginEntry and NvidbException appear in SitePlugins' signature and errors.
    requires transitive nvidb.core;
    requires org.pf4j;

    exports nvidb.pluginhost;

    uses nvidb.spi.probe.ProbeFactory;
    uses nvidb.spi.transport.TransportFactory;
    uses nvidb.spi.placement.PlacementPolicyFactory;
    uses nvidb.spi.alert.AlertSinkFactory;
    uses nvidb.spi.batch.BatchSchedulerFactory;
}
