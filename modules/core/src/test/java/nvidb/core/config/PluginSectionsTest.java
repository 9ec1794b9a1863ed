package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.spi.config.ConfigException;
import nvidb.spi.config.ConfigSection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core hands each plugin its own section of the configuration when it loads, knows none of their
 * keys, and reports a plugin's {@link ConfigException} as its own usage error, word for word.
 */
class PluginSectionsTest {

    @TempDir
    Path home;

    private final List<ConfigSection> handed = new ArrayList<>();

    private NvidbPaths paths() {
        return ConfigLoaderTest.paths(home);
    }

    private Path write(String name, String... lines) throws IOException {
        return ConfigLoaderTest.write(home, name, lines);
    }

    private QueueConfig load() {
        return new ConfigLoader(StubPlugins.registry(handed::add)).load(paths());
    }

    /** path, and each key with the file name and line its value was written on. */
    private static String describe(ConfigSection s) {
        StringBuilder sb = new StringBuilder(s.path()).append(" @").append(s.source().line()).append(':');
        s.source().mapping().forEach((k, v) -> sb.append(' ').append(k).append('@')
                .append(Path.of(v.file()).getFileName()).append(':').append(v.line()));
        return sb.toString();
    }

    @Test
    void eachEntryGoesToItsTransportAndNamedProbeAndNotifyToEverySink() throws IOException {
        write("config.yml",
                "servers:",
                "  - hostname: a",
                "    auth: kerberos",
                "  - hostname: b",
                "    transport: local",
                "    probe: wsl",
                "    shoe_size: 44",
                "queue:",
                "  notify:",
                "    log: false",
                "    webhook: https://example.invalid/hook");
        write("queue.yml", "queue:", "  notify:", "    desktop: sometimes");
        QueueConfig c = load();
        assertEquals(List.of(
                "queue.notify @2: log@config.yml:10 webhook@config.yml:11 desktop@queue.yml:3",
                "servers[0] @2: hostname@config.yml:2 auth@config.yml:3",
                "servers[1] @4: hostname@config.yml:4 transport@config.yml:5 probe@config.yml:6 shoe_size@config.yml:7",
                "servers[1] @4: hostname@config.yml:4 transport@config.yml:5 probe@config.yml:6 shoe_size@config.yml:7"),
                handed.stream().map(PluginSectionsTest::describe).toList(),
                "servers[0] names no probe; notify is merged key by key, each value naming its own file");
        assertEquals("kerberos", c.servers().get(0).options().get("auth"), "core checks no transport key");
        assertEquals(44L, c.servers().get(1).options().get("shoe_size"));
        assertEquals("sometimes", c.settings().notifySettings().get("desktop"), "core checks no sink key");
        assertEquals("https://example.invalid/hook", c.settings().notifySettings().get("webhook"));
    }

    @Test
    void withoutNotifyEverySinkStillGetsAnEmptySection() {
        load();
        assertEquals(1, handed.size(), "no servers: the local node is implied, and not checked");
        ConfigSection notify = handed.getFirst();
        assertEquals("queue.notify", notify.path());
        assertEquals(List.of(), List.copyOf(notify.keys()));
        assertEquals("configuration: queue.notify.url is missing", notify.error("url", "is missing").getMessage(),
                "an error about a key nobody wrote names no file");
    }

    @Test
    void aPluginsErrorIsAUsageErrorWordForWord() throws IOException {
        Path file = write("config.yml",
                "servers:",
                "  - hostname: a",
                "  - hostname: b",
                "    auth: kerberos");
        ConfigLoader loader = new ConfigLoader(StubPlugins.registry(section -> {
            if (section.string("auth", "auto").equals("kerberos")) {
                throw section.error("auth", "must be auto, key or password, not 'kerberos'");
            }
        }));
        NvidbException e = assertThrows(NvidbException.class, () -> loader.load(paths()));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("configuration " + file + ", line 4: servers[1].auth must be auto, key or password, not 'kerberos'",
                e.getMessage());
        assertEquals(ConfigException.class, e.getCause().getClass(), "kept for NVIDB_DEBUG's stack trace");
    }

    @Test
    void coresOwnErrorsKeepTheirWords() throws IOException {
        Path file = write("config.yml", "queue:", "  notify:", "    min_severity: info");
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals("configuration " + file + ", line 3: queue.notify.min_severity must be warning or error, not 'info'",
                e.getMessage());
        write("config.yml", "queue:", "  backup:", "    every: 3");
        assertEquals("configuration " + file + ", line 3: queue.backup.every is not a known setting (known: directory,"
                + " enabled, interval_hours, keep); remove it", assertThrows(NvidbException.class, this::load).getMessage());
        write("config.yml", "servers:", "  - hostname: [a, b]");
        assertEquals("configuration " + file + ", line 2: servers[0].hostname must be a single value, not a list",
                assertThrows(NvidbException.class, this::load).getMessage());
        write("config.yml", "queue:", "  placement: diagonal");
        assertEquals("configuration " + file + ", line 2: queue.placement must be one of pack, spread, not 'diagonal'",
                assertThrows(NvidbException.class, this::load).getMessage());
    }
}
