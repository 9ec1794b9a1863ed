package nvidb.spi.config;

import java.util.Collection;
import java.util.LinkedHashSet;
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
 * <p>The section remembers every key name its readers were asked for (written or not) and every
 * name {@link #know declared} known: once core and the plugins it hands the section to have had
 * their say, {@link #requireKnownKeys()} refuses a key that none of them knows, so a typo is an
 * error instead of a setting silently left at its default. A plugin therefore reads or declares
 * every key it understands in its {@code validate}, even those it only uses later.
 */
public final class ConfigSection {
    private final String path;
    private final ConfigValue source;
    /** Every key name asked for or declared, in that order (loading is single-threaded). */
    private final Set<String> known = new LinkedHashSet<>();

    /**
     * @param path   the dotted key of this mapping ({@code servers[0]}, {@code queue.notify}); errors name
     *               {@code path.key}; empty for a file's top level
     * @param source the mapping and where it was written
     */
    public ConfigSection(String path, ConfigValue source) {
        this.path = Objects.requireNonNull(path, "path");
        this.source = Objects.requireNonNull(source, "source");
        if (!source.isMapping()) {
            throw source.error(path, "must be a mapping of keys, not " + source.describe());
        }
    }

    public String path() {
        return path;
    }

    public ConfigValue source() {
        return source;
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
        known.add(name);
        return source.mapping().containsKey(name);
    }

    /** The value written for {@code name}, even an empty one. */
    public Optional<ConfigValue> value(String name) {
        known.add(name);
        return Optional.ofNullable(source.mapping().get(name));
    }

    public String string(String name, String dflt) {
        ConfigValue v = read(name);
        return v == null ? dflt : v.string(key(name), dflt);
    }

    public boolean bool(String name, boolean dflt) {
        ConfigValue v = read(name);
        return v == null ? dflt : v.bool(key(name), dflt);
    }

    public int integer(String name, int dflt, int min) {
        ConfigValue v = read(name);
        return v == null ? dflt : v.integer(key(name), dflt, min);
    }

    public double number(String name, double dflt) {
        ConfigValue v = read(name);
        return v == null ? dflt : v.number(key(name), dflt);
    }

    /** @see ConfigValue#oneOf */
    public String oneOf(String name, String dflt, String... allowed) {
        ConfigValue v = read(name);
        return v == null ? dflt : v.oneOf(key(name), dflt, List.of(allowed));
    }

    /**
     * Declares keys this reader understands without reading them now (a transport reads some of
     * its keys only when it opens a connection), so {@link #requireKnownKeys()} accepts them and
     * may suggest them.
     */
    public void know(String... names) {
        known.addAll(List.of(names));
    }

    /**
     * Refuses the first key written here that is not {@code known}, listing the known ones and
     * suggesting the nearest ({@code ; did you mean headroom_mb?}) when one is near, else saying
     * to remove it: every refusal names the key and the fix.
     */
    public void requireKnownKeys(Collection<String> known) {
        this.known.addAll(known);
        for (Map.Entry<String, ConfigValue> e : source.mapping().entrySet()) {
            if (!known.contains(e.getKey())) {
                throw unknown(e.getKey(), known);
            }
        }
    }

    /**
     * Refuses the first key written here that no reader asked for and none {@link #know declared}:
     * called once everyone who reads this section has read it.
     */
    public void requireKnownKeys() {
        requireKnownKeys(Set.copyOf(known));
    }

    private ConfigException unknown(String name, Collection<String> known) {
        String suggestion = KeySuggestion.nearest(name, known).map(k -> "; did you mean " + k + "?")
                .orElse("; remove it");
        return source.mapping().get(name).error(key(name), "is not a known setting (known: "
                + String.join(", ", new TreeSet<>(known)) + ")" + suggestion);
    }

    private ConfigValue read(String name) {
        known.add(name);
        return source.mapping().get(name);
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

    /** Two sections are equal when they have the same path and mapping; what was read does not count. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ConfigSection other && path.equals(other.path) && source.equals(other.source);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, source);
    }

    @Override
    public String toString() {
        return "ConfigSection[path=" + path + ", source=" + source + "]";
    }
}
