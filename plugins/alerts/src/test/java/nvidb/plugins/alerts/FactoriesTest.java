package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
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
import nvidb.spi.config.ConfigException;
import nvidb.spi.config.ConfigSection;
import nvidb.testkit.ConfigSections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the four factories check and read {@code queue.notify}, through ServiceLoader as core finds them. */
class FactoriesTest {

    @TempDir
    Path home;

    private final Map<String, AlertSinkFactory> factories = ServiceLoader.load(AlertSinkFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .collect(Collectors.toMap(AlertSinkFactory::name, Function.identity()));

    private SinkContext context() {
        return new SinkContext(home);
    }

    /** What core passes for an empty {@code notify:}: its own keys' defaults; each sink defaults its own. */
    private static Map<String, Object> defaults() {
        return new HashMap<>(Map.of("enabled", true, "min_severity", "warning"));
    }

    private static Map<String, Object> with(String key, Object value) {
        Map<String, Object> settings = defaults();
        settings.put(key, value);
        return settings;
    }

    @Test
    void fourAlertSinksAreRegistered() {
        assertEquals(Map.of("log", PluginKind.ALERT_SINK, "command", PluginKind.ALERT_SINK, "desktop", PluginKind.ALERT_SINK,
                        "webhook", PluginKind.ALERT_SINK),
                factories.values().stream().collect(Collectors.toMap(AlertSinkFactory::name, AlertSinkFactory::kind)));
    }

    @Test
    void defaultsSwitchOnLogAndDesktopButNotCommandOrWebhook() {
        assertInstanceOf(LogSink.class, factories.get("log").create(defaults(), context()));
        assertInstanceOf(DesktopSink.class, factories.get("desktop").create(defaults(), context()));
        assertNull(factories.get("command").create(defaults(), context()));
        assertNull(factories.get("webhook").create(defaults(), context()));
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
        off.put("webhook", "https://ntfy.example/q");
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
    void anUnquotedNumberIsACommandAsWritten() {
        assertInstanceOf(CommandSink.class, factories.get("command").create(with("command", 5L), context()));
    }

    @Test
    void aCommandThatIsNotTextIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> factories.get("command").create(with("command", java.util.List.of("a", "b")), context()));
        assertTrue(e.getMessage().contains("queue.notify.command"), e.getMessage());
    }

    // ---------------------------------------------------------------- checks at configuration load

    private static final String FILE = "/home/alice/.nvidb/queue.yml";

    /** {@code queue.notify} as core hands it over: its block in queue.yml, first key on line 3. */
    private static ConfigSection notify(Object... keysAndValues) {
        return ConfigSections.section("queue.notify", FILE, 3, keysAndValues);
    }

    private String refusal(String sink, ConfigSection notify) {
        return assertThrows(ConfigException.class, () -> factories.get(sink).validate(notify)).getMessage();
    }

    @Test
    void eachSinkChecksItsOwnKeyWithTheFileLineAndKey() {
        // These messages are the ones core's configuration loader gave when it checked these keys.
        assertEquals("configuration " + FILE + ", line 4: queue.notify.desktop must be true or false, not value 'sometimes'",
                refusal("desktop", notify("enabled", true, "desktop", "sometimes")));
        assertEquals("configuration " + FILE + ", line 3: queue.notify.log must be true or false, not value '1'",
                refusal("log", notify("log", 1)));
        assertEquals("configuration " + FILE + ", line 5: queue.notify.command must be a single value, not a list",
                refusal("command", notify("log", true, "desktop", false, "command", java.util.List.of("a", "b"))));
    }

    @Test
    void aSinkLeavesOtherKeysAloneAndEmptyMeansDefault() {
        ConfigSection others = notify("enabled", "maybe", "min_severity", "info", "pager", java.util.List.of(1));
        ConfigSection empty = notify("log", null, "desktop", null, "command", null, "webhook", null);
        for (AlertSinkFactory factory : factories.values()) {
            assertDoesNotThrow(() -> factory.validate(others), factory.name());
            assertDoesNotThrow(() -> factory.validate(empty), factory.name());
            assertDoesNotThrow(() -> factory.validate(ConfigSection.empty("queue.notify")), factory.name());
        }
        assertDoesNotThrow(() -> factories.get("command").validate(notify("command", 5)), "a number is a command");
    }

    // ---------------------------------------------------------------- webhook

    @Test
    void aWebhookIsAUrlOrAMappingWithUrlTimeoutAndHeaders() {
        WebhookSink plain = assertInstanceOf(WebhookSink.class,
                factories.get("webhook").create(with("webhook", "https://ntfy.example/gpu-queue"), context()));
        assertDoesNotThrow(() -> factories.get("webhook").validate(notify("webhook", "https://ntfy.example/gpu-queue")));
        Map<String, Object> full = Map.of("url", "http://127.0.0.1:8080/hook", "timeout", 2.5,
                "headers", Map.of("Authorization", "Bearer s3cret", "Title", "nvidb"));
        assertDoesNotThrow(() -> factories.get("webhook").validate(notify("webhook", full)));
        WebhookSettings settings = WebhookSettings.from(with("webhook", full)).orElseThrow();
        assertEquals(java.time.Duration.ofMillis(2500), settings.timeout());
        assertEquals(Map.of("Authorization", "Bearer s3cret", "Title", "nvidb"), settings.headers());
        assertEquals("http://127.0.0.1:8080", settings.where(), "messages never show the path, which is the secret");
        assertNull(factories.get("webhook").create(with("webhook", false), context()));
        assertTrue(plain != null);
    }

    @Test
    void webhookMistakesNameTheFileLineAndKey() {
        assertEquals("configuration " + FILE + ", line 3: queue.notify.webhook.tiemout is not a known setting"
                        + " (known: headers, timeout, url); did you mean timeout?",
                refusal("webhook", notify("webhook", Map.of("url", "https://h/x", "tiemout", 5))));
        assertEquals("configuration " + FILE + ", line 4: queue.notify.webhook must be an http or https URL with a"
                        + " host, e.g. https://ntfy.sh/my-queue, not 'ntfy.sh/q'",
                refusal("webhook", notify("log", true, "webhook", "ntfy.sh/q")));
        assertTrue(refusal("webhook", notify("webhook", Map.of("timeout", 5))).endsWith(
                "queue.notify.webhook.url is required: the address to POST alerts to, e.g. https://ntfy.sh/my-queue"));
        assertTrue(refusal("webhook", notify("webhook", Map.of("url", "https://h/x", "timeout", 0))).endsWith(
                "queue.notify.webhook.timeout must be a number of seconds above 0 and at most 60, not value '0'"));
        assertTrue(refusal("webhook", notify("webhook", Map.of("url", "https://h/x", "timeout", 600))).contains("at most 60"));
        assertTrue(refusal("webhook", notify("webhook", Map.of("url", "https://h/x", "headers", Map.of("Host", "x"))))
                .contains("queue.notify.webhook.headers.Host is not a header the HTTP client may send"));
        assertTrue(refusal("webhook", notify("webhook", true)).contains("queue.notify.webhook needs the address"));
        assertTrue(refusal("webhook", notify("webhook", java.util.List.of("a"))).contains("must be a single value"));
    }
}
