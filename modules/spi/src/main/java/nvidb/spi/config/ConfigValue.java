package nvidb.spi.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One value of a configuration file, with the file and line it was written on, so whoever reads
 * it can name them in an error. The typed readers take the dotted key to name ({@code
 * servers[0].port}) and throw a {@link ConfigException} saying what would be right.
 *
 * @param value a {@code Map<String, ConfigValue>} (a mapping, in file order), a {@code
 *              List<ConfigValue>}, a String, Long, Double, Boolean, or null (written empty)
 * @param file  the file it was read from; null for a value no file wrote
 * @param line  the 1-based line it starts on; 0 where unknown
 */
public record ConfigValue(Object value, String file, int line) {
    public ConfigValue {
        // instanceof, not a switch over types: each such switch bootstraps a class at run time on
        // its first use (the AOT cache cannot hold it), and every command reads its configuration.
        if (value instanceof Map<?, ?> m) {
            value = mappingOf(m);
        } else if (value instanceof List<?> l) {
            value = listOf(l);
        } else if (value != null && !(value instanceof String || value instanceof Long || value instanceof Double
                || value instanceof Boolean)) {
            throw new IllegalArgumentException("a configuration value is a mapping, list, String, Long,"
                    + " Double, Boolean or null, not " + value.getClass().getName());
        }
    }

    private static Map<String, ConfigValue> mappingOf(Map<?, ?> m) {
        Map<String, ConfigValue> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put((String) k, (ConfigValue) Objects.requireNonNull(v, "mapping value")));
        return Collections.unmodifiableMap(out);
    }

    private static List<ConfigValue> listOf(List<?> l) {
        return l.stream().map(ConfigValue.class::cast).toList();
    }

    public boolean isMapping() {
        return value instanceof Map;
    }

    public boolean isList() {
        return value instanceof List;
    }

    /** The keys and values of a mapping, in file order. */
    @SuppressWarnings("unchecked")
    public Map<String, ConfigValue> mapping() {
        if (!isMapping()) {
            throw new IllegalStateException("not a mapping: " + describe());
        }
        return (Map<String, ConfigValue>) value;
    }

    @SuppressWarnings("unchecked")
    public List<ConfigValue> list() {
        if (!isList()) {
            throw new IllegalStateException("not a list: " + describe());
        }
        return (List<ConfigValue>) value;
    }

    /** The value as plain Java objects (mappings and lists unwrapped), as {@code NodeAddress.options()} holds them. */
    public Object plain() {
        if (isMapping()) {
            Map<String, Object> out = new LinkedHashMap<>();
            mapping().forEach((k, v) -> out.put(k, v.plain()));
            return out;
        }
        if (isList()) {
            return list().stream().map(ConfigValue::plain).toList();
        }
        return value;
    }

    /** How an error names what was written: {@code mapping}, {@code list}, {@code empty value}, {@code value 'x'}. */
    public String describe() {
        if (isMapping()) {
            return "mapping";
        }
        if (isList()) {
            return "list";
        }
        return value == null ? "empty value" : "value '" + value + "'";
    }

    /** An error about this value, naming its file and line. */
    public ConfigException error(String key, String problem) {
        return new ConfigException(this, key, problem);
    }

    /** A single value as text; {@code dflt} when written empty. Numbers and booleans read as written. */
    public String string(String key, String dflt) {
        if (value == null) {
            return dflt;
        }
        if (isMapping() || isList()) {
            throw error(key, "must be a single value, not a " + describe());
        }
        return String.valueOf(value);
    }

    /** {@code true} or {@code false} (YAML's yes/no/on/off among them); {@code dflt} when written empty. */
    public boolean bool(String key, boolean dflt) {
        if (value == null) {
            return dflt;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        throw error(key, "must be true or false, not " + describe());
    }

    /** A whole number from {@code min} up; {@code dflt} when written empty. */
    public int integer(String key, int dflt, int min) {
        if (value == null) {
            return dflt;
        }
        if (value instanceof Long l && l >= min && l <= Integer.MAX_VALUE) {
            return l.intValue();
        }
        throw error(key, "must be a whole number ≥ " + min + ", not " + describe());
    }

    /** A number ≥ 0, whole or not; {@code dflt} when written empty. */
    public double number(String key, double dflt) {
        if (value == null) {
            return dflt;
        }
        if (value instanceof Number n && n.doubleValue() >= 0) {
            return n.doubleValue();
        }
        throw error(key, "must be a number ≥ 0, not " + describe());
    }

    /**
     * One of {@code allowed}, spelled exactly; {@code dflt} when written empty. The error lists
     * them as a sentence: {@code must be auto, key or password, not 'kerberos'}.
     */
    public String oneOf(String key, String dflt, List<String> allowed) {
        String s = string(key, dflt);
        if (s == null || allowed.contains(s)) {
            return s;
        }
        throw error(key, "must be " + sentence(allowed) + ", not '" + s + "'");
    }

    private static String sentence(List<String> words) {
        int last = words.size() - 1;
        return last < 1 ? String.join("", words)
                : String.join(", ", words.subList(0, last)) + " or " + words.get(last);
    }
}
