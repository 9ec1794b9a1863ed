/**
 * The built-in alert sinks, each switched by its own key under {@code queue.notify}: {@code log}
 * (JSON lines in {@code $NVIDB_HOME/alerts.log}), {@code command} (a shell command fed the alert
 * on stdin), {@code desktop} (a desktop notification) and {@code webhook} (an HTTP POST of the
 * alert's JSON). Nothing is exported; core finds the sinks through {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.alerts {
    requires nvidb.spi;
    // The JDK's own HTTP client for the webhook sink: no library needed for one POST.
    requires java.net.http;

    provides nvidb.spi.alert.AlertSinkFactory with
            nvidb.plugins.alerts.LogSinkFactory,
            nvidb.plugins.alerts.CommandSinkFactory,
            nvidb.plugins.alerts.DesktopSinkFactory,
            nvidb.plugins.alerts.WebhookSinkFactory;
}
