/**
 * The queue itself: job model, dependency gate, scheduler pass, SQLite store, configuration and
 * the registry of plugins. Everything outside (nodes, GPUs, notifications) is reached through
 * {@code nvidb.spi}; this module never names a plugin.
 */
module nvidb.core {
    requires transitive nvidb.spi;
    requires transitive com.fasterxml.jackson.databind;
    requires java.sql;
    requires org.xerial.sqlitejdbc;
    requires org.yaml.snakeyaml;

    exports nvidb.core.error;
    exports nvidb.core.util;
    exports nvidb.core.config;
    exports nvidb.core.model;
    exports nvidb.core.service;
    exports nvidb.core.plugins;

    opens nvidb.core.store.migrations;

    uses nvidb.spi.probe.ProbeFactory;
    uses nvidb.spi.transport.TransportFactory;
    uses nvidb.spi.placement.PlacementPolicyFactory;
    uses nvidb.spi.alert.AlertSinkFactory;
}
