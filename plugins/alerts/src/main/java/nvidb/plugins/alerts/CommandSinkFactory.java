package nvidb.plugins.alerts;

import java.util.Map;
import java.util.Objects;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import nvidb.spi.config.ConfigSection;

/** {@code queue.notify.command} (off unless set): a shell command fed each alert as JSON on stdin. */
public final class CommandSinkFactory implements AlertSinkFactory {

    @Override
    public String name() {
        return "command";
    }

    /** {@code queue.notify.command} must be a single value (a shell command), or empty. */
    @Override
    public void validate(ConfigSection notify) {
        notify.string("command", null);
    }

    @Override
    public AlertSink create(Map<String, Object> settings, SinkContext context) {
        Objects.requireNonNull(context, "context");
        if (!NotifySettings.enabled(settings)) {
            return null;
        }
        return NotifySettings.command(settings).map(CommandSink::new).orElse(null);
    }
}
