package nvidb.spi.alert;

import java.util.Map;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;

/** Creates an alert sink from its settings under {@code queue.notify}. */
public interface AlertSinkFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.ALERT_SINK;
    }

    /**
     * @param settings the whole {@code queue.notify} block (each sink reads its own keys)
     * @param context  where the queue lives
     * @return the sink, or {@code null} when the settings leave this sink switched off
     */
    AlertSink create(Map<String, Object> settings, SinkContext context);
}
