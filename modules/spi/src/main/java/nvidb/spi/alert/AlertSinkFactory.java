package nvidb.spi.alert;

import java.util.Map;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.config.ConfigSection;

/** Creates an alert sink from its settings under {@code queue.notify}. */
public interface AlertSinkFactory extends PluginFactory {

    @Override
    default PluginKind kind() {
        return PluginKind.ALERT_SINK;
    }

    /**
     * Checks the sink's own keys of {@code queue.notify} when configuration loads, so a mistake
     * stops every command at start with the file, line and key. Core checks only {@code enabled}
     * and {@code min_severity}; every other key there belongs to a sink, which reads or declares
     * (with {@link ConfigSection#know}) each of its own: a key no sink knows is refused. The default
     * checks nothing and knows no key.
     *
     * @param notify the {@code queue.notify} block (config.yml's and queue.yml's merged key by key;
     *               each value names its own file), empty where none is written
     * @throws nvidb.spi.config.ConfigException a key of this sink is wrong
     */
    default void validate(ConfigSection notify) {
    }

    /**
     * @param settings the whole {@code queue.notify} block as plain values (each sink reads its
     *                 own keys), as {@link #validate} saw them; a key not written is absent
     * @param context  where the queue lives
     * @return the sink, or {@code null} when the settings leave this sink switched off
     */
    AlertSink create(Map<String, Object> settings, SinkContext context);
}
