package nvidb.core.plugins;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.api.NvidbException;
import nvidb.core.api.PluginEntry;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.placement.PlacementPolicyFactory;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.transport.TransportFactory;

/**
 * Every plugin this process can use: the built-in ones found with {@link ServiceLoader}, plus
 * site plugins handed in by the plugin host. Two plugins of one kind and one name make the
 * registry refuse to start, naming both, because configuration could not say which it meant.
 */
public final class PluginRegistry {


    private final Map<PluginKind, Map<String, PluginEntry>> byKind = new LinkedHashMap<>();

    private PluginRegistry(List<PluginEntry> entries) {
        for (PluginKind kind : PluginKind.values()) {
            byKind.put(kind, new LinkedHashMap<>());
        }
        for (PluginEntry e : entries) {
            PluginEntry clash = byKind.get(e.kind()).putIfAbsent(e.name(), e);
            if (clash != null) {
                throw NvidbException.failed("two " + e.kind().label() + " plugins are named '" + e.name() + "': "
                        + describe(clash) + " and " + describe(e) + "; remove one of them");
            }
        }
        // A server entry's transport: names a transport or a batch scheduler: one name must not mean both.
        for (PluginEntry batch : byKind.get(PluginKind.BATCH_SCHEDULER).values()) {
            PluginEntry transport = byKind.get(PluginKind.TRANSPORT).get(batch.name());
            if (transport != null) {
                throw NvidbException.failed("a transport and a batch_scheduler plugin are both named '" + batch.name()
                        + "' (transport: names either): " + describe(transport) + " and " + describe(batch)
                        + "; remove one of them");
            }
        }
    }

    private static String describe(PluginEntry e) {
        return e.factory().getClass().getName() + " (" + e.origin() + ")";
    }

    /** The built-in plugins of the module layer or class path, plus {@code sitePlugins}. */
    public static PluginRegistry load(List<PluginEntry> sitePlugins) {
        List<PluginEntry> all = new ArrayList<>();
        for (Class<? extends PluginFactory> type : List.of(ProbeFactory.class, TransportFactory.class,
                PlacementPolicyFactory.class, AlertSinkFactory.class, BatchSchedulerFactory.class)) {
            for (PluginFactory f : builtIn(type)) {
                all.add(new PluginEntry(f, "builtin"));
            }
        }
        all.addAll(sitePlugins);
        return new PluginRegistry(all);
    }

    /**
     * The providers of {@code type} that modules declare ({@code provides}), then those of jars on
     * the class path. Asked of the module layer, the lookup reads the module descriptors alone; a
     * class loader's lookup would also search every module's and every jar's {@code
     * META-INF/services} (about 15 ms of every command), so that search runs only when there is a
     * class path to search.
     */
    private static <F extends PluginFactory> List<F> builtIn(Class<F> type) {
        ModuleLayer layer = PluginRegistry.class.getModule().getLayer();
        ClassLoader loader = PluginRegistry.class.getClassLoader();
        if (layer == null) {
            return ServiceLoader.load(type, loader).stream().map(ServiceLoader.Provider::get).toList();
        }
        List<F> found = new ArrayList<>(ServiceLoader.load(layer, type).stream().map(ServiceLoader.Provider::get).toList());
        String classPath = System.getProperty("java.class.path", "");
        if (!classPath.isBlank()) {
            ServiceLoader.load(type, loader).stream().filter(p -> !p.type().getModule().isNamed())
                    .map(ServiceLoader.Provider::get).forEach(found::add);
        }
        return found;
    }

    public static PluginRegistry of(List<PluginEntry> entries) {
        return new PluginRegistry(entries);
    }

    public List<PluginEntry> all() {
        List<PluginEntry> out = new ArrayList<>();
        byKind.values().forEach(m -> out.addAll(m.values()));
        out.sort(Comparator.comparing((PluginEntry e) -> e.kind().ordinal()).thenComparing(PluginEntry::name));
        return out;
    }

    public Set<String> names(PluginKind kind) {
        return new TreeSet<>(byKind.get(kind).keySet());
    }

    public <T extends PluginFactory> Optional<T> find(Class<T> type, PluginKind kind, String name) {
        PluginEntry e = byKind.get(kind).get(name);
        return e == null ? Optional.empty() : Optional.of(type.cast(e.factory()));
    }

    public <T extends PluginFactory> T require(Class<T> type, PluginKind kind, String name) {
        return find(type, kind, name).orElseThrow(() -> NvidbException.usage("no " + kind.label() + " plugin named '"
                + name + "' (installed: " + String.join(", ", names(kind)) + ")"));
    }

    public <T extends PluginFactory> List<T> allOf(Class<T> type, PluginKind kind) {
        return byKind.get(kind).values().stream().map(e -> type.cast(e.factory())).toList();
    }
}
