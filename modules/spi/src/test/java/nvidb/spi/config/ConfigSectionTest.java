package nvidb.spi.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The readers a plugin checks its section with, and the one message form of every configuration error. */
class ConfigSectionTest {
    private static final String FILE = "/etc/nvidb/config.yml";

    /** {@code servers[2]} on line 10, one key a line. */
    private static ConfigSection entry(Object... keysAndValues) {
        Map<String, ConfigValue> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], new ConfigValue(keysAndValues[i + 1], FILE, 10 + i / 2));
        }
        return new ConfigSection("servers[2]", new ConfigValue(m, FILE, 10));
    }

    private static String refusal(ConfigSection s, Function<ConfigSection, Object> read) {
        return assertThrows(ConfigException.class, () -> read.apply(s)).getMessage();
    }

    @Test
    void eachReaderNamesTheFileTheLineTheKeyAndWhatIsRight() {
        ConfigSection s = entry("name", "a", "list", List.of(new ConfigValue("x", FILE, 11)), "flag", "yes",
                "count", 0L, "ratio", -1.5, "mode", "fast");
        assertEquals("configuration " + FILE + ", line 11: servers[2].list must be a single value, not a list",
                refusal(s, x -> x.string("list", null)));
        assertEquals("configuration " + FILE + ", line 12: servers[2].flag must be true or false, not value 'yes'",
                refusal(s, x -> x.bool("flag", true)));
        assertEquals("configuration " + FILE + ", line 13: servers[2].count must be a whole number ≥ 1, not value '0'",
                refusal(s, x -> x.integer("count", 1, 1)));
        assertEquals("configuration " + FILE + ", line 14: servers[2].ratio must be a number ≥ 0, not value '-1.5'",
                refusal(s, x -> x.number("ratio", 0)));
        assertEquals("configuration " + FILE + ", line 15: servers[2].mode must be slow, steady or careful, not 'fast'",
                refusal(s, x -> x.oneOf("mode", "slow", "slow", "steady", "careful")));
        assertEquals("configuration " + FILE + ", line 15: servers[2].mode must be slow or steady, not 'fast'",
                refusal(s, x -> x.oneOf("mode", "slow", "slow", "steady")));
        assertEquals("configuration " + FILE + ", line 10: servers[2].name is not a known setting (known: count, flag,"
                + " zzz); remove it", refusal(s, x -> {
                    x.requireKnownKeys(Set.of("zzz", "flag", "count"));
                    return null;
                }));
    }

    @Test
    void readersReturnTheValueOrTheDefaultForAKeyNotWrittenOrWrittenEmpty() {
        ConfigSection s = entry("name", "a", "port", 2222L, "on", true, "ratio", 1L, "empty", null, "mode", "slow");
        assertEquals("a", s.string("name", "b"));
        assertEquals("2222", s.string("port", null), "a number reads as written");
        assertEquals(2222, s.integer("port", 22, 1));
        assertTrue(s.bool("on", false));
        assertEquals(1.0, s.number("ratio", 0));
        assertEquals("slow", s.oneOf("mode", "fast", "slow", "fast"));
        for (String key : List.of("absent", "empty")) {
            assertEquals("d", s.string(key, "d"));
            assertEquals(7, s.integer(key, 7, 1));
            assertFalse(s.bool(key, false));
            assertEquals("fast", s.oneOf(key, "fast", "slow", "fast"));
        }
        assertTrue(s.contains("empty"));
        assertFalse(s.contains("absent"));
        assertEquals(List.of("name", "port", "on", "ratio", "empty", "mode"), List.copyOf(s.keys()), "file order");
    }

    @Test
    void anErrorAboutAMissingKeyNamesTheSectionsLine() {
        ConfigSection s = entry("nickname", "a", "hostname", "h");
        assertEquals("configuration " + FILE + ", line 10: servers[2].password is missing",
                s.error("password", "is missing").getMessage());
        assertEquals("configuration " + FILE + ", line 11: servers[2].hostname is wrong",
                s.error("hostname", "is wrong").getMessage());
        assertEquals("configuration: queue.notify.url is missing",
                ConfigSection.empty("queue.notify").error("url", "is missing").getMessage(), "nothing written: no file");
        ConfigException e = s.error("hostname", "is wrong");
        assertEquals(FILE, e.file());
        assertEquals(11, e.line());
        assertEquals("servers[2].hostname", e.key());
        assertEquals("is wrong", e.problem());
    }

    @Test
    void aSectionIsAMappingAndAValueIsReadOnly() {
        assertEquals("configuration " + FILE + ", line 4: servers[0] must be a mapping of keys, not value 'gpu-box-1'",
                assertThrows(ConfigException.class,
                        () -> new ConfigSection("servers[0]", new ConfigValue("gpu-box-1", FILE, 4))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ConfigValue(42, FILE, 1), "an Integer is not a YAML value");
        assertThrows(ClassCastException.class, () -> new ConfigValue(List.of("not a ConfigValue"), FILE, 1));

        Map<String, ConfigValue> source = new HashMap<>(Map.of("a", new ConfigValue("x", FILE, 2)));
        List<ConfigValue> items = new ArrayList<>(List.of(new ConfigValue(1L, FILE, 3)));
        source.put("list", new ConfigValue(items, FILE, 3));
        ConfigSection s = new ConfigSection("", new ConfigValue(source, FILE, 1));
        source.clear();
        items.clear();
        assertEquals(Map.of("a", "x", "list", List.of(1L)), s.plain(), "copied when made");
        assertThrows(UnsupportedOperationException.class, () -> s.source().mapping().clear());
        assertEquals("a", s.key("a"), "the top level has no path");
    }

    @Test
    void describeNamesWhatWasWritten() {
        assertEquals("mapping", new ConfigValue(Map.of(), FILE, 1).describe());
        assertEquals("list", new ConfigValue(List.of(), FILE, 1).describe());
        assertEquals("empty value", new ConfigValue(null, FILE, 1).describe());
        assertEquals("value '1.5'", new ConfigValue(1.5, FILE, 1).describe());
    }

    @Test
    void aKeyNoReaderAskedForNorDeclaredIsRefusedWithTheNearestKnownOne() {
        ConfigSection s = entry("hostname", "a", "identityfle", "~/.ssh/k");
        s.string("hostname", null);
        s.bool("sudo", false); // asked for though not written: known, and a candidate
        s.know("identityfile", "proxyjump");
        assertEquals("configuration " + FILE + ", line 11: servers[2].identityfle is not a known setting (known: hostname,"
                + " identityfile, proxyjump, sudo); did you mean identityfile?", refusal(s, x -> {
                    x.requireKnownKeys();
                    return null;
                }));
        ConfigSection far = entry("hostname", "a", "shoe_size", 44L);
        far.string("hostname", null);
        assertEquals("configuration " + FILE + ", line 11: servers[2].shoe_size is not a known setting (known:"
                + " hostname); remove it", refusal(far, x -> {
                    x.requireKnownKeys();
                    return null;
                }), "nothing near: no guess");
        ConfigSection fine = entry("hostname", "a", "port", 22L);
        fine.contains("hostname");
        fine.value("port");
        fine.requireKnownKeys();
    }

    @Test
    void theNearestKeyIsATypoOrAKeyCutShortNeverAGuess() {
        Set<String> top = Set.of("servers", "queue", "remote");
        assertEquals(java.util.Optional.of("servers"), KeySuggestion.nearest("sevrers", top), "two letters swapped");
        assertEquals(java.util.Optional.of("servers"), KeySuggestion.nearest("Servers", top));
        assertEquals(java.util.Optional.of("queue"), KeySuggestion.nearest("queu", top));
        assertEquals(java.util.Optional.of("gpu_ids"), KeySuggestion.nearest("gpu_id", Set.of("gpus", "gpu_ids")));
        assertEquals(java.util.Optional.of("identity_files"),
                KeySuggestion.nearest("identity_fil", Set.of("identityfile", "identity_files", "hostname")));
        assertEquals(java.util.Optional.of("nvidia_smi"),
                KeySuggestion.nearest("nvidia_smi_path", Set.of("nvidia_smi", "job_root")), "a key run on");
        assertEquals(java.util.Optional.empty(), KeySuggestion.nearest("nodes", top));
        assertEquals(java.util.Optional.empty(), KeySuggestion.nearest("ab", Set.of("port", "user")));
        assertEquals(1, KeySuggestion.distance("ab", "ba"));
        assertEquals(3, KeySuggestion.distance("kitten", "sitting"));
    }
}
