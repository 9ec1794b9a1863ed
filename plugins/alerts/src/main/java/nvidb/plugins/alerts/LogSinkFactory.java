package nvidb.plugins.alerts;

import java.util.Map;
import java.util.Objects;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import nvidb.spi.config.ConfigSection;

/** {@code queue.notify.log} (on by default): alerts as JSON lines in {@code $NVIDB_HOME/alerts.log}. */
public final class LogSinkFactory implements AlertSinkFactory {

    /** The file's name inside the nvidb home, where {@code queue alerts} users look for it. */
    static final String FILE_NAME = "alerts.log";

    @Override
    public String name() {
        return "log";
    }

    /** {@code queue.notify.log} must be true or false. */
    @Override
    public void validate(ConfigSection notify) {
        notify.bool("log", true);
    }

    @Override
    public AlertSink create(Map<String, Object> settings, SinkContext context) {
        Objects.requireNonNull(context, "context");
        if (!NotifySettings.switchedOn(settings, "log")) {
            return null;
        }
        return new LogSink(context.nvidbHome().resolve(FILE_NAME));
    }
}
