package nvidb.plugins.transport.ssh;

import static nvidb.testkit.ConfigSections.section;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;
import nvidb.spi.config.ConfigException;
import nvidb.spi.config.ConfigSection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the ssh transport checks of a server entry when configuration loads (these checks stood
 * in core's configuration loader before, with these very messages): file, line, key, what is right.
 */
class ValidateTest {
    private static final String FILE = "/home/alice/.nvidb/config.yml";

    private final SshTransportFactory factory = new SshTransportFactory();

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of(section("servers[1]", FILE, 3, "hostname", "b", "auth", "kerberos"),
                        "line 4: servers[1].auth must be auto, key or password, not 'kerberos'"),
                Arguments.of(section("servers[0]", FILE, 2, "hostname", "a", "auth", "password"),
                        "line 3: servers[0].auth is password but the entry has no password:"),
                Arguments.of(section("servers[0]", FILE, 2, "hostname", "a", "auth", "password", "password", null),
                        "line 3: servers[0].auth is password but the entry has no password:"),
                Arguments.of(section("servers[0]", FILE, 2, "hostname", "a", "auth", "Key"),
                        "line 3: servers[0].auth must be auto, key or password, not 'Key'"),
                Arguments.of(section("servers[0]", FILE, 2, "hostname", "a", "auth", List.of("key")),
                        "line 3: servers[0].auth must be a single value, not a list"),
                Arguments.of(section("servers[0]", FILE, 2, "hostname", "a", "host_key_check", "sometimes"),
                        "line 3: servers[0].host_key_check must be strict, accept-new or off, not 'sometimes'"),
                // YAML's unquoted yes is the boolean true, not a spelling of strict.
                Arguments.of(section("servers[0]", FILE, 2, "hostname", "a", "host_key_check", true),
                        "line 3: servers[0].host_key_check must be strict, accept-new or off, not 'true'"),
                // A missing hostname is named at the entry's own line.
                Arguments.of(section("servers[0]", FILE, 2, "nickname", "a", "port", 22),
                        "line 2: servers[0].hostname is missing: an ssh server needs a hostname (or transport: local)"),
                Arguments.of(section("servers[2]", FILE, 7, "nickname", "a", "hostname", " "),
                        "line 7: servers[2].hostname is missing: an ssh server needs a hostname (or transport: local)"),
                Arguments.of(section("servers[0]", FILE, 2, "hostname", null, "host", "b"),
                        "line 2: servers[0].hostname is missing: an ssh server needs a hostname (or transport: local)"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("mistakes")
    void aMistakeNamesTheFileTheLineTheKeyAndWhatIsRight(ConfigSection entry, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> factory.validate(entry));
        assertEquals("configuration " + FILE + ", " + expected, e.getMessage());
    }

    @Test
    void theReferenceSpellingsAndTheDefaultsPass() {
        for (ConfigSection entry : List.of(
                section("servers[0]", FILE, 2, "hostname", "a"),
                section("servers[0]", FILE, 2, "host", "a", "auth", null, "host_key_check", null),
                section("servers[0]", FILE, 2, "hostname", "a", "auth", "key", "host_key_check", "accept-new"),
                section("servers[0]", FILE, 2, "hostname", "a", "auth", "auto", "host_key_check", "strict"),
                section("servers[0]", FILE, 2, "hostname", "a", "auth", "password", "password", 1234),
                // YAML's unquoted off is the boolean false: the setting off.
                section("servers[0]", FILE, 2, "hostname", "a", "host_key_check", false),
                section("servers[0]", FILE, 2, "hostname", "a", "host_key_check", "off",
                        "identityfile", List.of("~/.ssh/a", "~/.ssh/b"), "some_future_key", 3))) {
            assertDoesNotThrow(() -> factory.validate(entry), entry.toString());
        }
    }
}
