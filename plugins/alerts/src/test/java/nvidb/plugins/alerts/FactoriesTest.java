package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the three factories read {@code queue.notify}, through ServiceLoader as core finds them. */
class FactoriesTest {

    @TempDir
    Path home;

    private final Map<String, AlertSinkFactory> factories = ServiceLoader.load(AlertSinkFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .collect(Collectors.toMap(AlertSinkFactory::name, Function.identity()));

    private SinkContext context() {
        return new SinkContext(home);
    }

    /** The defaults core passes: {@code QueueSettings.NotifySettings.DEFAULTS}. */
    private static Map<String, Object> defaults() {
        return new HashMap<>(Map.of("enabled", true, "desktop", true, "log", true, "min_severity", "warning"));
    }

    private static Map<String, Object> with(String key, Object value) {
        Map<String, Object> settings = defaults();
        settings.put(key, value);
        return settings;
    }

    @Test
    void threeAlertSinksAreRegistered() {
        assertEquals(Map.of("log", PluginKind.ALERT_SINK, "command", PluginKind.ALERT_SINK, "desktop", PluginKind.ALERT_SINK),
                factories.values().stream().collect(Collectors.toMap(AlertSinkFactory::name, AlertSinkFactory::kind)));
    }

    @Test
    void defaultsSwitchOnLogAndDesktopButNotCommand() {
        assertInstanceOf(LogSink.class, factories.get("log").create(defaults(), context()));
        assertInstanceOf(DesktopSink.class, factories.get("desktop").create(defaults(), context()));
        assertNull(factories.get("command").create(defaults(), context()));
    }

    @Test
    void emptyOrMissingSettingsMeanTheDefaults() {
        assertInstanceOf(LogSink.class, factories.get("log").create(Map.of(), context()));
        assertInstanceOf(DesktopSink.class, factories.get("desktop").create(null, context()));
    }

    @Test
    void enabledFalseSwitchesEverySinkOff() {
        Map<String, Object> off = with("enabled", false);
        off.put("command", "cat >/dev/null");
        for (AlertSinkFactory factory : factories.values()) {
            assertNull(factory.create(off, context()), factory.name());
        }
    }

    @Test
    void eachSinkHasItsOwnSwitch() {
        assertNull(factories.get("log").create(with("log", false), context()));
        assertNull(factories.get("desktop").create(with("desktop", false), context()));
        assertInstanceOf(LogSink.class, factories.get("log").create(with("desktop", false), context()));
    }

    @Test
    void commandSinkExistsOnlyWithANonBlankCommand() {
        assertInstanceOf(CommandSink.class, factories.get("command").create(with("command", "logger -t nvidb"), context()));
        assertNull(factories.get("command").create(with("command", "   "), context()));
        assertNull(factories.get("command").create(with("command", null), context()));
    }

    @Test
    void quotedBooleanSpellingsAreUnderstoodAndNonsenseIsRefused() {
        assertNull(factories.get("log").create(with("log", "off"), context()));
        assertInstanceOf(LogSink.class, factories.get("log").create(with("log", "Yes"), context()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> factories.get("log").create(with("log", "maybe"), context()));
        assertTrue(e.getMessage().contains("queue.notify.log"), e.getMessage());
    }

    @Test
    void aCommandThatIsNotTextIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> factories.get("command").create(with("command", java.util.List.of("a", "b")), context()));
        assertTrue(e.getMessage().contains("queue.notify.command"), e.getMessage());
    }
}
