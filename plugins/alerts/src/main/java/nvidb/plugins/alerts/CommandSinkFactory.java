package nvidb.plugins.alerts;

import java.util.Map;
import java.util.Objects;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;

/** {@code queue.notify.command} (off unless set): a shell command fed each alert as JSON on stdin. */
public final class CommandSinkFactory implements AlertSinkFactory {

    @Override
    public String name() {
        return "command";
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
