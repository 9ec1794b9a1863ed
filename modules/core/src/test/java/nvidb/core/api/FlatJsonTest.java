package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader of the store's compact columns takes what the store writes (random keys, values,
 * escapes, ids) and reads it as Jackson does; what it leaves to Jackson, it leaves whole.
 */
class FlatJsonTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void readsWhatTheStoreWritesAsJacksonDoes() throws Exception {
        Random random = new Random(14);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < 2000; i++) {
            Map<String, String> env = new LinkedHashMap<>();
            List<String> tags = new ArrayList<>();
            List<Long> ids = new ArrayList<>();
            for (int n = random.nextInt(5); n > 0; n--) {
                env.put(text(json), text(json));
                tags.add(text(json));
                ids.add(random.nextLong() >> (14 + random.nextInt(50))); // at most 15 digits
            }
            String envText = Json.write(env);
            Map<String, String> read = FlatJson.stringMap(envText);
            assertNotNull(read, envText);
            assertEquals(List.copyOf(MAPPER.readValue(envText, new TypeReference<LinkedHashMap<String, String>>() { })
                    .entrySet()), List.copyOf(read.entrySet()), envText);
            assertEquals(MAPPER.readValue(Json.write(tags), new TypeReference<List<String>>() { }),
                    FlatJson.strings(Json.write(tags)));
            assertEquals(ids, FlatJson.longs(Json.write(ids)));
        }
    }

    @Test
    void leavesEverythingElseToJackson() {
        for (String text : List.of("", " []", "[ 1]", "[1 ]", "[01]", "[1.5]", "[1e3]", "[-]", "[1234567890123456789]",
                "[1,]", "[,1]", "[\"a\"]x", "{\"a\":null}", "{\"a\":1}", "{\"a\" :\"b\"}", "{\"a\":\"b\",}",
                "[\"\\x\"]", "[\"\\u12\"]", "[\"a\u0001\"]", "[\"unterminated]", "{\"a\":\"b\"", "null")) {
            assertNull(FlatJson.longs(text), text);
            assertNull(FlatJson.strings(text), text);
            assertNull(FlatJson.stringMap(text), text);
        }
        assertEquals(List.of(-12L, 0L, 7L), FlatJson.longs("[-12,0,7]"));
        assertEquals(List.of("a\"b", "\u00e9\n"), FlatJson.strings("[\"a\\\"b\",\"\\u00e9\\n\"]"));
        assertEquals(Map.of("k", "v"), FlatJson.stringMap("{\"k\":\"v\"}"));
    }

    /** A random string value (the literal RandomJson makes, read back; invalid ones become ""). */
    private static String text(RandomJson json) {
        try {
            return MAPPER.readValue(json.string(), String.class);
        } catch (Exception e) {
            return "";
        }
    }
}
