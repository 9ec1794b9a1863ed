/**
 * The built-in alert sinks, each switched by its own key under {@code queue.notify}: {@code log}
 * (JSON lines in {@code $NVIDB_HOME/alerts.log}), {@code command} (a shell command fed the alert
 * on stdin) and {@code desktop} (a desktop notification). Nothing is exported; core finds the
 * sinks through {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.alerts {
    requires nvidb.spi;

    provides nvidb.spi.alert.AlertSinkFactory with
            nvidb.plugins.alerts.LogSinkFactory,
            nvidb.plugins.alerts.CommandSinkFactory,
            nvidb.plugins.alerts.DesktopSinkFactory;
}
