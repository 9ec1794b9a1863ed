package nvidb.core.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON columns: lists of ids, tags, env. Unreadable stored values read as empty, never fail a read.
 *
 * <p>Every job row holds several small JSON columns, and every command reads rows, so these are
 * read and written with jackson-core's streaming parser and generator: no databind
 * {@code ObjectMapper} on the path of an ordinary command (building one costs more start-up time
 * than the command's own work). Values of the usual shapes (strings, numbers, booleans, null,
 * maps with string keys, collections, JSON trees) take that path and come out byte for byte as
 * the mapper writes and reads them; anything else — a record, an unusual number type, a stored
 * text of another shape — goes to the mapper ({@link MapperHolder#MAPPER}, built on first use),
 * so results never differ from the mapper's.
 */
public final class Json implements MapperHolder {
    /** Plain jackson-core factory: the same parser and generator features the mapper uses by default. */
    static final JsonFactory FACTORY = new JsonFactory();

    private Json() {
    }

    /** Compact JSON, as {@code ObjectMapper.writeValueAsString} writes it. */
    public static String write(Object value) {
        try {
            StringWriter out = new StringWriter(64);
            boolean done;
            try (JsonGenerator g = FACTORY.createGenerator(out)) {
                done = writeValue(g, value);
            }
            if (done) {
                return out.toString();
            }
        } catch (IOException e) {
            // the mapper below says what is wrong with it
        }
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * Writes {@code value} the way the mapper serialises it by default; false (with part of it
     * written) when the value holds anything this does not know, for the mapper to do instead.
     */
    static boolean writeValue(JsonGenerator g, Object value) throws IOException {
        // An if chain, not a pattern switch: each pattern switch spins a class at run time
        // (SwitchBootstraps), which the AOT cache does not keep.
        if (value == null) {
            g.writeNull();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Integer n) {
            g.writeNumber(n);
        } else if (value instanceof Long n) {
            g.writeNumber(n);
        } else if (value instanceof Double n) {
            g.writeNumber(n);
        } else if (value instanceof JsonNode n) {
            return writeTree(g, n);
        } else if (value instanceof Map<?, ?> m && isJdkType(m)) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    return false;
                }
                g.writeFieldName(key);
                if (!writeValue(g, e.getValue())) {
                    return false;
                }
            }
            g.writeEndObject();
        } else if (value instanceof Collection<?> c && isJdkType(c)) {
            g.writeStartArray();
            for (Object o : c) {
                if (!writeValue(g, o)) {
                    return false;
                }
            }
            g.writeEndArray();
        } else {
            return false;
        }
        return true;
    }

    /** java.util's own maps and collections: no annotations or custom serialisers can apply to them. */
    private static boolean isJdkType(Object o) {
        return o.getClass().getName().startsWith("java.util.");
    }

    /** See {@link nvidb.core.api.JsonTrees#write}. */
    public static boolean writeTree(JsonGenerator g, JsonNode node) throws IOException {
        return nvidb.core.api.JsonTrees.write(g, node);
    }

    /**
     * {@code ObjectMapper.readTree} of stored text: the same nodes for the same text. Well-formed
     * JSON of the usual kinds is parsed here; anything else (duplicate keys, big or single
     * precision numbers, trailing text, errors) goes to the mapper, which decides as it always has.
     */
    public static JsonNode readTree(String text) throws JsonProcessingException {
        JsonNode fast = parseTree(FACTORY, text);
        return fast != null ? fast : MAPPER.readTree(text);
    }

    /** The tree of {@code text} when it is one JSON value of the usual kinds; null otherwise. */
    public static JsonNode parseTree(JsonFactory factory, String text) {
        return nvidb.core.api.JsonTrees.parse(factory, text);
    }


    public static List<Long> longs(String text) {
        if (text == null || text.isBlank()) {
            return new ArrayList<>();
        }
        List<Long> fast = plainLongs(text);
        if (fast == null) {
            fast = fastLongs(text);
        }
        return fast != null ? fast : mapperLongs(text);
    }

    /**
     * What {@link #write} makes of a list of ids, {@code [1,2,3]} (no blanks, no sign, no
     * leading zero, at most 18 digits), read without a parser: most rows hold {@code []} or a
     * few ids. Null for any other text.
     */
    private static List<Long> plainLongs(String text) {
        int n = text.length();
        if (n < 2 || text.charAt(0) != '[' || text.charAt(n - 1) != ']') {
            return null;
        }
        List<Long> out = new ArrayList<>();
        if (n == 2) {
            return out;
        }
        int i = 1;
        while (true) {
            int start = i;
            long value = 0;
            while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                value = value * 10 + (text.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || digits > 18 || (digits > 1 && text.charAt(start) == '0')) {
                return null;
            }
            out.add(value);
            if (i == n - 1) {
                return out;
            }
            if (text.charAt(i) != ',') {
                return null;
            }
            i++;
        }
    }

    /** An array of plain integers; null for anything else. */
    private static List<Long> fastLongs(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<Long> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    return null;
                }
                out.add(p.getLongValue());
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static List<Long> mapperLongs(String text) {
        List<Long> out = new ArrayList<>();
        try {
            for (Object o : MAPPER.readValue(text, List.class)) {
                if (o instanceof Number n) {
                    out.add(n.longValue());
                }
            }
        } catch (JsonProcessingException e) {
            // unreadable: empty
        }
        return out;
    }

    public static List<Integer> ints(String text) {
        List<Integer> out = new ArrayList<>();
        for (Long l : longs(text)) {
            out.add(l.intValue());
        }
        return out;
    }

    public static List<String> strings(String text) {
        if (text == null || text.isBlank()) {
            return new ArrayList<>();
        }
        List<String> fast = plainStrings(text);
        if (fast == null) {
            fast = fastStrings(text);
        }
        return fast != null ? fast : mapperStrings(text);
    }

    /**
     * {@code ["a","b"]} as {@link #write} makes it, of strings without escapes, read without a
     * parser (tags). Null for any other text.
     */
    private static List<String> plainStrings(String text) {
        int n = text.length();
        if (n < 2 || text.charAt(0) != '[' || text.charAt(n - 1) != ']') {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (n == 2) {
            return out;
        }
        int i = 1;
        while (true) {
            int end = plainStringEnd(text, i, n - 1);
            if (end < 0) {
                return null;
            }
            out.add(text.substring(i + 1, end));
            i = end + 1;
            if (i == n - 1) {
                return out;
            }
            if (text.charAt(i) != ',') {
                return null;
            }
            i++;
        }
    }

    /**
     * The index of the closing quote of a string starting at {@code i} (its opening quote),
     * before {@code limit}; -1 unless it is there and holds no escape and no control character
     * (text a JSON parser reads character for character).
     */
    private static int plainStringEnd(String text, int i, int limit) {
        if (i >= limit || text.charAt(i) != '"') {
            return -1;
        }
        for (int j = i + 1; j < limit; j++) {
            char c = text.charAt(j);
            if (c == '"') {
                return j;
            }
            if (c == '\\' || c < 0x20) {
                return -1;
            }
        }
        return -1;
    }

    /** An array of strings; null for anything else. */
    private static List<String> fastStrings(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<String> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_STRING) {
                    return null;
                }
                out.add(p.getText());
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static List<String> mapperStrings(String text) {
        List<String> out = new ArrayList<>();
        try {
            for (Object o : MAPPER.readValue(text, List.class)) {
                out.add(String.valueOf(o));
            }
        } catch (JsonProcessingException e) {
            // unreadable: empty
        }
        return out;
    }

    public static Map<String, String> stringMap(String text) {
        if (text == null || text.isBlank()) {
            return new LinkedHashMap<>();
        }
        Map<String, String> fast = plainStringMap(text);
        if (fast == null) {
            fast = fastStringMap(text);
        }
        return fast != null ? fast : mapperStringMap(text);
    }

    /**
     * {@code {"K":"v"}} as {@link #write} makes it, of strings without escapes, read without a
     * parser (env; mostly {@code {}}). Null for any other text.
     */
    private static Map<String, String> plainStringMap(String text) {
        int n = text.length();
        if (n < 2 || text.charAt(0) != '{' || text.charAt(n - 1) != '}') {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (n == 2) {
            return out;
        }
        int i = 1;
        while (true) {
            int keyEnd = plainStringEnd(text, i, n - 1);
            if (keyEnd < 0 || keyEnd + 1 >= n - 1 || text.charAt(keyEnd + 1) != ':') {
                return null;
            }
            int valueEnd = plainStringEnd(text, keyEnd + 2, n - 1);
            if (valueEnd < 0) {
                return null;
            }
            // A repeated key: the last value, in the first one's place, as the mapper reads it.
            out.put(text.substring(i + 1, keyEnd), text.substring(keyEnd + 3, valueEnd));
            i = valueEnd + 1;
            if (i == n - 1) {
                return out;
            }
            if (text.charAt(i) != ',') {
                return null;
            }
            i++;
        }
    }

    /** An object whose values are all strings; null for anything else. */
    private static Map<String, String> fastStringMap(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String key = p.currentName();
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    return null;
                }
                out.put(key, p.getText());
            }
            return p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null ? out : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Map<String, String> mapperStringMap(String text) {
        try {
            return MAPPER.readValue(text, new TypeReference<LinkedHashMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            return new LinkedHashMap<>();
        }
    }
}
