package nvidb.plugins.alerts;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import nvidb.spi.config.ConfigSection;

/** {@code queue.notify.desktop} (on by default): a desktop notification per alert. */
public final class DesktopSinkFactory implements AlertSinkFactory {

    @Override
    public String name() {
        return "desktop";
    }

    /** {@code queue.notify.desktop} must be true or false. */
    @Override
    public void validate(ConfigSection notify) {
        notify.bool("desktop", true);
    }

    @Override
    public AlertSink create(Map<String, Object> settings, SinkContext context) {
        Objects.requireNonNull(context, "context");
        if (!NotifySettings.switchedOn(settings, "desktop")) {
            return null;
        }
        boolean macOs = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac");
        return new DesktopSink(System.getenv("PATH"), macOs, DesktopSink.TIMEOUT);
    }
}
