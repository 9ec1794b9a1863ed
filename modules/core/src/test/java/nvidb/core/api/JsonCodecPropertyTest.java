package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * What {@link Json} streams against what databind's mapper does with the same input, on random
 * documents: trees read ({@link Json#readTree}), trees and plain values written compact and
 * pretty, and the column readers ({@link Json#longs}, {@link Json#ints}, {@link Json#strings},
 * {@link Json#stringMap}) — for these, most documents have the shape the store writes (so that
 * the streamed path is the one taken), the rest are anything at all, some of them broken.
 */
class JsonCodecPropertyTest {
    /** The reference: a mapper of its own, default features. */
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long SEED = 20_261_203L;
    private static final int DOCUMENTS = 6_000;

    @Test
    void treesReadAndWriteAsTheMapperReadsAndWritesThem() throws Exception {
        int streamed = 0;
        for (String text : documents(4, r -> r.value(5))) {
            assertSame(text, () -> MAPPER.readTree(text), () -> Json.readTree(text));
            JsonNode tree;
            try {
                tree = MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                continue;
            }
            streamed += JsonStreams.parseTree(text) != null ? 1 : 0;
            assertEquals(MAPPER.writeValueAsString(tree), Json.write(tree), text);
            assertEquals(MAPPER.writer(Json.PRETTY).writeValueAsString(tree), Json.pretty(tree), text);
            Object plain = MAPPER.convertValue(tree, Object.class); // maps, lists, strings, numbers, booleans, null
            assertEquals(MAPPER.writeValueAsString(plain), Json.write(plain), text);
        }
        assertTrue(streamed > DOCUMENTS / 4, "the streamed tree reader served " + streamed + " documents");
    }

    @Test
    void longsAndIntsReadWhatTheMapperReads() {
        int streamed = 0;
        for (String text : documents(1, r -> r.array(r.random().nextInt(6), r::integer))) {
            assertSame(text, () -> mapperLongs(text), () -> Json.longs(text));
            assertSame(text, () -> mapperLongs(text).stream().map(Long::intValue).toList(), () -> Json.ints(text));
            streamed += text.matches("\\s*\\[[-0-9, \\t\\r\\n]*]\\s*") ? 1 : 0;
        }
        assertTrue(streamed > DOCUMENTS / 4, "the streamed shape came up " + streamed + " times");
    }

    @Test
    void stringsReadWhatTheMapperReads() {
        for (String text : documents(2, r -> r.array(r.random().nextInt(6), r::string))) {
            assertSame(text, () -> mapperStrings(text), () -> Json.strings(text));
        }
    }

    @Test
    void stringMapsReadWhatTheMapperReads() {
        for (String text : documents(3, r -> r.object(r.random().nextInt(6), r::string, r::string))) {
            // LinkedHashMap equality ignores order: compare the entries in order.
            assertSame(text, () -> entries(mapperStringMap(text)), () -> entries(Json.stringMap(text)));
        }
    }

    @Test
    void whatTheStoreWritesReadsBack() {
        Random random = new Random(SEED);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < DOCUMENTS; i++) {
            List<Long> ids = new ArrayList<>();
            List<String> tags = new ArrayList<>();
            Map<String, String> env = new LinkedHashMap<>();
            for (int n = random.nextInt(5); n > 0; n--) {
                ids.add(random.nextLong() >> random.nextInt(64));
                tags.add(unquoted(json.string()));
                env.put(unquoted(json.string()), random.nextInt(5) == 0 ? null : unquoted(json.string()));
            }
            assertEquals(ids, Json.longs(Json.write(ids)));
            assertEquals(tags, Json.strings(Json.write(tags)));
            assertEquals(entries(env), entries(Json.stringMap(Json.write(env))));
        }
    }

    /** The text of a valid string literal. */
    private static String unquoted(String literal) {
        try {
            return MAPPER.readValue(literal, String.class);
        } catch (JsonProcessingException e) {
            return "";
        }
    }

    /** DOCUMENTS texts: two in three of {@code shape} (now and then damaged), the rest any value; blanks too. */
    private static List<String> documents(int salt, java.util.function.Function<RandomJson, String> shape) {
        RandomJson json = new RandomJson(new Random(SEED + salt));
        List<String> out = new ArrayList<>(List.of("", " ", "null", "[]", "{}", "[null]", "[[]]", "{\"a\":{}}"));
        while (out.size() < DOCUMENTS) {
            String text = json.random().nextInt(3) > 0 ? shape.apply(json) : json.value(4);
            out.add(json.damage(text));
        }
        return out;
    }

    // The readers as the store had them before any streaming: the mapper alone.

    private static List<Long> mapperLongs(String text) throws JsonProcessingException {
        List<Long> out = new ArrayList<>();
        for (Object o : mapperList(text)) {
            if (o instanceof Number n) {
                out.add(n.longValue());
            }
        }
        return out;
    }

    private static List<String> mapperStrings(String text) throws JsonProcessingException {
        List<String> out = new ArrayList<>();
        for (Object o : mapperList(text)) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    private static List<?> mapperList(String text) {
        if (text.isBlank()) {
            return List.of();
        }
        try {
            return MAPPER.readValue(text, List.class);
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }

    private static Map<String, String> mapperStringMap(String text) {
        if (text.isBlank()) {
            return new LinkedHashMap<>();
        }
        try {
            return MAPPER.readValue(text, new TypeReference<LinkedHashMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            return new LinkedHashMap<>();
        }
    }

    private static List<Map.Entry<String, String>> entries(Map<String, String> map) {
        return map == null ? null : new ArrayList<>(map.entrySet());
    }

    /** Both give equal values, or both fail with the same exception type. */
    private static void assertSame(String text, Callable<Object> expected, Callable<Object> actual) {
        assertEquals(outcome(expected), outcome(actual), () -> "for " + text.replace("\n", "\\n"));
    }

    private static Object outcome(Callable<Object> c) {
        try {
            return c.call();
        } catch (Exception e) {
            return e.getClass();
        }
    }
}
