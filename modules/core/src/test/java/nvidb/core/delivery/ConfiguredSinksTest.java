package nvidb.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.core.api.PluginEntry;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import org.junit.jupiter.api.Test;

class ConfiguredSinksTest {
    private static final SinkContext CONTEXT = new SinkContext(Path.of("/tmp/nvidb-home"));
    private static final AlertMessage ALERT = new AlertMessage(1, "2026-03-01T10:00:00+00:00", "job_failed", "error",
            null, null, "t", null, "{\"id\":1}");

    /** A sink plugin that is on when its key is true, and throws when its key is "boom". */
    private record Factory(String name) implements AlertSinkFactory {
        @Override
        public AlertSink create(Map<String, Object> settings, SinkContext context) {
            Object mine = settings.get(name);
            if ("boom".equals(mine)) {
                throw new IllegalArgumentException("queue.notify." + name + " makes no sense");
            }
            return Boolean.TRUE.equals(mine) ? alert -> { } : null;
        }
    }

    private static PluginRegistry registry(String... names) {
        return PluginRegistry.of(java.util.Arrays.stream(names).map(n -> new PluginEntry(new Factory(n), "test")).toList());
    }

    @Test
    void eachSwitchedOnSinkUnderItsPluginName() {
        List<ConfiguredSinks.Named> sinks = ConfiguredSinks.create(registry("a", "b", "c"),
                Map.of("enabled", true, "a", true, "c", true), CONTEXT);
        assertEquals(List.of("a", "c"), sinks.stream().map(ConfiguredSinks.Named::name).toList());
    }

    @Test
    void enabledFalseSwitchesEverySinkOffWhateverThePluginWouldDo() {
        assertEquals(List.of(), ConfiguredSinks.create(registry("a"), Map.of("enabled", false, "a", true), CONTEXT));
    }

    @Test
    void aFactoryThatThrowsGivesASinkThatFailsEveryDeliverySayingWhy() {
        List<ConfiguredSinks.Named> sinks = ConfiguredSinks.create(registry("a", "b"),
                Map.of("enabled", true, "a", "boom", "b", true), CONTEXT);
        assertEquals(List.of("a", "b"), sinks.stream().map(ConfiguredSinks.Named::name).toList());
        IOException e = assertThrows(IOException.class, () -> sinks.getFirst().sink().deliver(ALERT));
        assertEquals("the a alert sink could not be set up: queue.notify.a makes no sense", e.getMessage());
        assertTrue(sinks.get(1).sink() != null);
    }
}
