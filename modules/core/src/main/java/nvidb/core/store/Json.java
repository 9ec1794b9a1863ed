package nvidb.core.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON columns: lists of ids, tags, env. Unreadable stored values read as empty, never fail a read. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    public static List<Long> longs(String text) {
        List<Long> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
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
        List<String> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
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
        try {
            return MAPPER.readValue(text, new TypeReference<LinkedHashMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            return new LinkedHashMap<>();
        }
    }
}
