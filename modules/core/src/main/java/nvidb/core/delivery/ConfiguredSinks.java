package nvidb.core.delivery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;

/**
 * The alert sinks {@code queue.notify} switches on, each under its plugin's name (the name its
 * deliveries are recorded under). {@code enabled: false} switches every one off, whatever a site
 * plugin would do with the setting.
 */
final class ConfiguredSinks {

    /** A sink and the name its deliveries are recorded under. */
    record Named(String name, AlertSink sink) {
        Named {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(sink, "sink");
        }
    }

    private ConfiguredSinks() {
    }

    /**
     * A factory that throws is a plugin fault, not a reason to stop scheduling: its sink fails every
     * delivery with the factory's complaint, so the alerts wait for it, visibly, until it is fixed
     * or switched off.
     */
    static List<Named> create(PluginRegistry plugins, Map<String, Object> notify, SinkContext context) {
        if (Boolean.FALSE.equals(notify.get("enabled"))) {
            return List.of();
        }
        List<Named> out = new ArrayList<>();
        for (AlertSinkFactory factory : plugins.allOf(AlertSinkFactory.class, PluginKind.ALERT_SINK)) {
            AlertSink sink;
            try {
                sink = factory.create(notify, context);
            } catch (RuntimeException e) {
                String why = "the " + factory.name() + " alert sink could not be set up: " + e.getMessage();
                sink = alert -> {
                    throw new IOException(why);
                };
            }
            if (sink != null) {
                out.add(new Named(factory.name(), sink));
            }
        }
        return List.copyOf(out);
    }
}
