package nvidb.core.config;

import java.util.List;
import java.util.Map;

/**
 * A YAML value with where it was written, so a configuration error can name the file and line.
 * {@code value} is a {@code Map<String, YamlValue>}, a {@code List<YamlValue>}, a String, Long,
 * Double, Boolean, or null.
 */
record YamlValue(Object value, String file, int line) {

    @SuppressWarnings("unchecked")
    Map<String, YamlValue> map() {
        return (Map<String, YamlValue>) value;
    }

    @SuppressWarnings("unchecked")
    List<YamlValue> list() {
        return (List<YamlValue>) value;
    }

    boolean isMap() {
        return value instanceof Map;
    }

    boolean isList() {
        return value instanceof List;
    }

    String where() {
        return file + ", line " + line;
    }

    /** The value as a plain Java object (maps and lists unwrapped), for plugin settings. */
    Object plain() {
        if (value instanceof Map<?, ?>) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            map().forEach((k, v) -> out.put(k, v.plain()));
            return out;
        }
        if (value instanceof List<?>) {
            return list().stream().map(YamlValue::plain).toList();
        }
        return value;
    }
}
