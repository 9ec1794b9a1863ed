package nvidb.spi.config;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One mapping of the configuration, as a plugin receives it to check its own keys: a server entry
 * for a transport or probe, {@code queue.notify} for an alert sink. Read-only; each value knows the
 * file and line it was written on, and every reader throws a {@link ConfigException} that names
 * them, the key and what would be right, exactly as core's own configuration errors do.
 *
 * <p>A key written with an empty value ({@code log:}) reads as absent: the reader returns its default.
 *
 * @param path   the dotted key of this mapping ({@code servers[0]}, {@code queue.notify}); errors name
 *               {@code path.key}; empty for a file's top level
 * @param source the mapping and where it was written
 */
public record ConfigSection(String path, ConfigValue source) {
    public ConfigSection {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(source, "source");
        if (!source.isMapping()) {
            throw source.error(path, "must be a mapping of keys, not " + source.describe());
        }
    }

    /** A section nothing was written in (every reader returns its default). */
    public static ConfigSection empty(String path) {
        return new ConfigSection(path, new ConfigValue(Map.of(), null, 0));
    }

    /** The dotted key an error names for {@code name} in this section. */
    public String key(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** The keys written here, in file order. */
    public Set<String> keys() {
        return source.mapping().keySet();
    }

    /** Whether {@code name} is written here, even with an empty value. */
    public boolean contains(String name) {
        return source.mapping().containsKey(name);
    }

    /** The value written for {@code name}, even an empty one. */
    public Optional<ConfigValue> value(String name) {
        return Optional.ofNullable(source.mapping().get(name));
    }

    public String string(String name, String dflt) {
        ConfigValue v = source.mapping().get(name);
        return v == null ? dflt : v.string(key(name), dflt);
    }

    public boolean bool(String name, boolean dflt) {
        ConfigValue v = source.mapping().get(name);
        return v == null ? dflt : v.bool(key(name), dflt);
    }

    public int integer(String name, int dflt, int min) {
        ConfigValue v = source.mapping().get(name);
        return v == null ? dflt : v.integer(key(name), dflt, min);
    }

    public double number(String name, double dflt) {
        ConfigValue v = source.mapping().get(name);
        return v == null ? dflt : v.number(key(name), dflt);
    }

    /** @see ConfigValue#oneOf */
    public String oneOf(String name, String dflt, String... allowed) {
        ConfigValue v = source.mapping().get(name);
        return v == null ? dflt : v.oneOf(key(name), dflt, List.of(allowed));
    }

    /** Refuses the first key written here that is not {@code known}, listing the known ones. */
    public void requireKnownKeys(Collection<String> known) {
        for (Map.Entry<String, ConfigValue> e : source.mapping().entrySet()) {
            if (!known.contains(e.getKey())) {
                throw e.getValue().error(key(e.getKey()), "is not a known setting (known: "
                        + String.join(", ", new TreeSet<>(known)) + ")");
            }
        }
    }

    /**
     * An error about {@code name}, at the line of its value, or at this section's own line where
     * it is not written (a missing key).
     */
    public ConfigException error(String name, String problem) {
        return value(name).orElse(source).error(key(name), problem);
    }

    /** The keys and values as plain Java objects, in file order. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> plain() {
        return (Map<String, Object>) source.plain();
    }
}
