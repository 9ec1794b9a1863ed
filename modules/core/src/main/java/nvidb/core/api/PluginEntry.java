package nvidb.core.api;

import java.util.Objects;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;

/** A plugin and where it came from: {@code builtin}, or the jar a site plugin was loaded from. */
public record PluginEntry(PluginFactory factory, String origin) {
    public PluginEntry {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(origin, "origin");
    }

    public String name() {
        return factory.name();
    }

    public PluginKind kind() {
        return factory.kind();
    }
}
