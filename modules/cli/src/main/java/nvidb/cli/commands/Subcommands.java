package nvidb.cli.commands;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Subcommands by name, in help order. */
final class Subcommands {
    private final Map<String, Supplier<Object>> byName = new LinkedHashMap<>();

    Subcommands add(String name, Supplier<Object> factory) {
        byName.put(name, factory);
        return this;
    }

    Map<String, Supplier<Object>> map() {
        return Collections.unmodifiableMap(byName);
    }
}
