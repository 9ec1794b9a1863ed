/**
 * The queue itself: job lifecycle, scheduler passes, SQLite store, configuration and the registry
 * of plugins, published through {@code nvidb.core.api} and the documents made of it
 * ({@code nvidb.core.view}). Everything outside (nodes, GPUs, notifications) is reached through
 * {@code nvidb.spi}; this module never names a plugin.
 */
module nvidb.core {
    requires transitive nvidb.spi;
    requires transitive com.fasterxml.jackson.databind;
    requires java.sql;
    // The caller's OS account by the process's uid (getpwuid), which no variable or property can change.
    requires jdk.security.auth;
    requires org.xerial.sqlitejdbc;
    requires org.yaml.snakeyaml;

    // The façade the CLI (and the TUI and daemon) work through, and (view) the documents made of it.
    exports nvidb.core.api;
    // The application layer: the typed operations every front end calls, each with its Caller.
    exports nvidb.core.app;
    // The JSON documents as records: the CLI's --json, and any other front end that prints the same.
    exports nvidb.core.view;
    opens nvidb.core.view to com.fasterxml.jackson.databind;

    opens nvidb.core.store.migrations;

    uses nvidb.spi.probe.ProbeFactory;
    uses nvidb.spi.transport.TransportFactory;
    uses nvidb.spi.placement.PlacementPolicyFactory;
    uses nvidb.spi.alert.AlertSinkFactory;
    uses nvidb.spi.batch.BatchSchedulerFactory;
    uses nvidb.core.api.QueueAccess.Provider;

    provides nvidb.core.api.QueueAccess.Provider with nvidb.core.access.CoreAccess.Provider;
}
