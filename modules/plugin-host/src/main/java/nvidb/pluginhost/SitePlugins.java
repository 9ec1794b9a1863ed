package nvidb.pluginhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.PluginEntry;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.placement.PlacementPolicyFactory;
import nvidb.spi.probe.ProbeFactory;
import nvidb.spi.transport.TransportFactory;
import org.pf4j.DependencyResolver.DependenciesNotFoundException;
import org.pf4j.InvalidPluginDescriptorException;
import org.pf4j.PluginDependency;
import org.pf4j.PluginRuntimeException;
import org.pf4j.PluginWrapper;

/**
 * Site plugins: jars dropped into a plugin folder ({@code $NVIDB_HOME/plugins}, the
 * distribution's {@code plugins/}). Each is a plain jar whose manifest carries pf4j's {@code
 * Plugin-Id} and {@code Plugin-Version} (optionally {@code Plugin-Dependencies}, {@code
 * Plugin-Class}) and which names its factories in {@code META-INF/services/nvidb.spi.<kind>.<Kind>Factory}
 * files, as a built-in plugin does. pf4j reads the descriptor, orders dependencies and gives each
 * jar its own class loader; that loader shares only {@code nvidb.spi} (and pf4j) with the
 * application, so factories are real {@code ProbeFactory}, {@code TransportFactory}, ... objects
 * (the five kinds: {@code nvidb.spi.probe.ProbeFactory}, {@code nvidb.spi.transport.TransportFactory},
 * {@code nvidb.spi.placement.PlacementPolicyFactory}, {@code nvidb.spi.alert.AlertSinkFactory},
 * {@code nvidb.spi.batch.BatchSchedulerFactory}).
 *
 * <p>pf4j's {@code disabled.txt} / {@code enabled.txt} in the first folder (pf4j's default place
 * for them) switch plugins off by Plugin-Id, so a user can turn off a plugin the distribution
 * ships. A {@code Plugin-Class} is accepted but never started: nvidb plugins have no
 * lifecycle beyond their factories.
 */
public final class SitePlugins {

    private SitePlugins() {
    }

    /**
     * Loads every plugin jar in the given folders (missing folders are skipped) and returns their
     * factories as registry entries with origin = the jar's path. A factory's {@code version()}
     * reports its jar's Plugin-Version unless the factory overrides it.
     *
     * @param folders plugin folders, the user's own first (its {@code disabled.txt} applies)
     * @return the factories, folder by folder and jar by jar in name order; empty when no folder
     *         holds a jar
     * @throws NvidbException code {@link ErrorCode#FAILED}, naming the jar and the problem, when a
     *         jar cannot be read, lacks its descriptor or factories, or its dependencies are unmet
     */
    public static List<PluginEntry> load(List<Path> folders) {
        List<Path> roots = distinct(folders);
        List<Path> jars = new ArrayList<>();
        for (Path root : roots) {
            jars.addAll(jarsIn(root));
        }
        if (jars.isEmpty()) {
            return List.of(); // spares every command pf4j's start-up when nothing is installed
        }
        SitePluginManager manager = new SitePluginManager(roots);
        Map<Path, PluginWrapper> plugins = new LinkedHashMap<>();
        for (Path jar : jars) {
            plugins.put(jar, loadJar(manager, jar));
        }
        resolve(manager, plugins);
        List<PluginEntry> entries = new ArrayList<>();
        plugins.forEach((jar, plugin) -> {
            if (!plugin.getPluginState().isDisabled()) {
                entries.addAll(factories(jar, plugin.getPluginClassLoader()));
            }
        });
        return List.copyOf(entries);
    }

    /** Absolute folders, each once even when two paths lead to it, so no jar is loaded twice. */
    private static List<Path> distinct(List<Path> folders) {
        Map<Path, Path> byTarget = new LinkedHashMap<>();
        for (Path folder : Objects.requireNonNull(folders, "folders")) {
            Path absolute = folder.toAbsolutePath().normalize();
            byTarget.putIfAbsent(realPathIfExists(absolute), absolute);
        }
        return List.copyOf(byTarget.values());
    }

    private static Path realPathIfExists(Path path) {
        try {
            return Files.exists(path) ? path.toRealPath() : path;
        } catch (IOException e) {
            return path; // unreadable: jarsIn reports it
        }
    }

    private static List<Path> jarsIn(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new NvidbException(ErrorCode.FAILED, "cannot list plugin folder " + folder + ": " + reason(e), e);
        }
    }

    private static PluginWrapper loadJar(SitePluginManager manager, Path jar) {
        try {
            return manager.loadJar(jar);
        } catch (InvalidPluginDescriptorException e) {
            throw failed(jar.toString(), "its manifest needs the attributes Plugin-Id and Plugin-Version ("
                    + e.getMessage() + ")", e);
        } catch (RuntimeException e) {
            throw failed(jar.toString(), reason(e), e);
        }
    }

    private static void resolve(SitePluginManager manager, Map<Path, PluginWrapper> plugins) {
        try {
            manager.resolve();
        } catch (DependenciesNotFoundException e) {
            // pf4j names only the missing ids; the user needs to know which jar asked for them.
            List<String> problems = new ArrayList<>();
            plugins.forEach((jar, plugin) -> {
                for (PluginDependency dependency : plugin.getDescriptor().getDependencies()) {
                    if (e.getDependencies().contains(dependency.getPluginId())) {
                        problems.add("site plugin " + jar + " needs plugin '" + dependency.getPluginId()
                                + "', which no plugin folder holds");
                    }
                }
            });
            throw new NvidbException(ErrorCode.FAILED, String.join("; ", problems), e);
        } catch (PluginRuntimeException e) {
            throw new NvidbException(ErrorCode.FAILED, "the Plugin-Dependencies of the site plugins "
                    + plugins.keySet() + " cannot be met: " + reason(e), e);
        }
    }

    private static List<PluginEntry> factories(Path jar, ClassLoader loader) {
        String origin = jar.toString();
        List<PluginEntry> found = new ArrayList<>();
        for (PluginKind kind : PluginKind.values()) {
            for (PluginFactory factory : instances(factoryType(kind), loader, origin)) {
                check(factory, kind, origin);
                found.add(new PluginEntry(factory, origin));
            }
        }
        if (found.isEmpty()) {
            throw failed(origin, "it names no factory; list each in a META-INF/services file named after its"
                    + " factory interface, such as META-INF/services/" + PlacementPolicyFactory.class.getName());
        }
        return found;
    }

    // Exhaustive, so a new kind in the SPI does not compile until the host looks for it too.
    private static Class<? extends PluginFactory> factoryType(PluginKind kind) {
        return switch (kind) {
            case PROBE -> ProbeFactory.class;
            case TRANSPORT -> TransportFactory.class;
            case PLACEMENT -> PlacementPolicyFactory.class;
            case ALERT_SINK -> AlertSinkFactory.class;
            case BATCH_SCHEDULER -> BatchSchedulerFactory.class;
        };
    }

    /**
     * The providers the jar itself defines. Its loader also shows the service files of the plugins
     * it depends on (pf4j's dependency lookup), and those belong to the plugins that hold them.
     */
    private static <F extends PluginFactory> List<F> instances(Class<F> type, ClassLoader loader, String origin) {
        try {
            return ServiceLoader.load(type, loader).stream()
                    .filter(provider -> provider.type().getClassLoader() == loader)
                    .map(ServiceLoader.Provider::get)
                    .toList();
        } catch (ServiceConfigurationError | LinkageError e) {
            throw failed(origin, reason(e), e);
        }
    }

    /** What the registry and configuration take for granted, checked where foreign code comes in. */
    private static void check(PluginFactory factory, PluginKind listedAs, String origin) {
        String type = factory.getClass().getName();
        String name = factory.name();
        if (name == null || name.isEmpty() || !name.equals(name.toLowerCase(Locale.ROOT))
                || name.chars().anyMatch(Character::isWhitespace)) {
            throw failed(origin, type + " is named '" + name + "'; a plugin name is lower case without spaces");
        }
        if (factory.kind() != listedAs) {
            throw failed(origin, type + " is listed as a " + listedAs.label() + " factory but its kind() is "
                    + factory.kind());
        }
    }

    private static NvidbException failed(String jar, String problem, Throwable cause) {
        return new NvidbException(ErrorCode.FAILED, "cannot load site plugin " + jar + ": " + problem, cause);
    }

    private static NvidbException failed(String jar, String problem) {
        return new NvidbException(ErrorCode.FAILED, "cannot load site plugin " + jar + ": " + problem);
    }

    /** The messages down the cause chain, each once: a sentence for the user, not a stack trace. */
    private static String reason(Throwable t) {
        List<String> parts = new ArrayList<>();
        for (Throwable c = t; c != null; c = c.getCause()) {
            String message = c.getMessage() == null ? c.getClass().getSimpleName()
                    : c instanceof LinkageError ? c.getClass().getSimpleName() + ": " + c.getMessage()
                    : c.getMessage();
            if (parts.stream().noneMatch(p -> p.contains(message))) {
                parts.add(message);
            }
        }
        return String.join(": ", parts);
    }
}
