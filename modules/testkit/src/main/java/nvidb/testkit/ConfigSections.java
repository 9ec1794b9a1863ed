package nvidb.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;

/**
 * Configuration sections for plugin tests, as core hands them to a factory's {@code validate}:
 * each key written on a line of its own, the first on the section's own line, as YAML puts a
 * block mapping. Plugins cannot read YAML through core, so their tests build the section here.
 */
public final class ConfigSections {
    private ConfigSections() {
    }

    /**
     * @param path          the section's dotted key ({@code servers[1]}, {@code queue.notify})
     * @param file          the file it stands in
     * @param firstLine     the line of its first key
     * @param keysAndValues key, value, key, value, ...: a value is a String, Integer or Long, Double,
     *                      Boolean, null, or a List or Map of those (written on its key's line, as
     *                      a flow list or mapping is)
     */
    public static ConfigSection section(String path, String file, int firstLine, Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values come in pairs");
        }
        Map<String, ConfigValue> mapping = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            int line = firstLine + i / 2;
            mapping.put((String) keysAndValues[i], value(keysAndValues[i + 1], file, line));
        }
        return new ConfigSection(path, new ConfigValue(mapping, file, firstLine));
    }

    private static ConfigValue value(Object v, String file, int line) {
        return switch (v) {
            case Integer i -> new ConfigValue(i.longValue(), file, line);
            case List<?> l -> new ConfigValue(l.stream().map(item -> value(item, file, line)).toList(), file, line);
            case Map<?, ?> m -> {
                Map<String, ConfigValue> mapping = new LinkedHashMap<>();
                m.forEach((k, item) -> mapping.put((String) k, value(item, file, line)));
                yield new ConfigValue(mapping, file, line);
            }
            case null, default -> new ConfigValue(v, file, line);
        };
    }
}
