package nvidb.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import nvidb.spi.PluginFactory;
import nvidb.spi.placement.PlacementPolicyFactory;

/**
 * Builds a site plugin jar the way a site would ship one: Java sources compiled against the SPI
 * alone (not core, not this module), a manifest with pf4j's attributes, and {@code
 * META-INF/services} files naming the factories. Compilation happens in memory, so the only file
 * written is the jar itself.
 *
 * <pre>{@code
 * Path jar = SitePluginJarBuilder.plugin("roundrobin", "1.4.2")
 *         .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
 *         .writeTo(pluginsFolder.resolve("roundrobin.jar"));
 * }</pre>
 */
public final class SitePluginJarBuilder {

    private final Map<String, String> attributes = new LinkedHashMap<>();
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, List<String>> services = new LinkedHashMap<>();
    private final Map<String, byte[]> entries = new LinkedHashMap<>();

    private SitePluginJarBuilder() {
    }

    /** A plugin with the given pf4j {@code Plugin-Id} and {@code Plugin-Version}. */
    public static SitePluginJarBuilder plugin(String id, String version) {
        return new SitePluginJarBuilder().attribute("Plugin-Id", id).attribute("Plugin-Version", version);
    }

    /** Sets a main manifest attribute, such as {@code Plugin-Dependencies}; {@code null} removes it. */
    public SitePluginJarBuilder attribute(String name, String value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
        return this;
    }

    /** Adds a compilation unit; {@code className} is fully qualified. */
    public SitePluginJarBuilder source(String className, String javaSource) {
        sources.put(className, javaSource);
        return this;
    }

    /** Lists {@code implementation} in {@code META-INF/services/<factory type>}. */
    public SitePluginJarBuilder service(Class<? extends PluginFactory> factoryType, String implementation) {
        services.computeIfAbsent(factoryType.getName(), k -> new ArrayList<>()).add(implementation);
        return this;
    }

    /** Adds a file as is, such as a class file the plugin bundles. */
    public SitePluginJarBuilder entry(String path, byte[] content) {
        entries.put(path, content.clone());
        return this;
    }

    /**
     * Adds a placement policy factory named {@code pluginName}, listed as a service: each call of
     * {@code place} takes the next node, in candidate order, among those with enough GPUs, and
     * its first {@code gpus} candidate indices; empty when no node has enough.
     */
    public SitePluginJarBuilder roundRobinPlacement(String className, String pluginName) {
        int dot = className.lastIndexOf('.');
        String source = """
                package %s;

                import java.util.ArrayList;
                import java.util.LinkedHashMap;
                import java.util.List;
                import java.util.Map;
                import java.util.Optional;
                import nvidb.spi.placement.GpuBudget;
                import nvidb.spi.placement.Placement;
                import nvidb.spi.placement.PlacementPolicy;
                import nvidb.spi.placement.PlacementPolicyFactory;
                import nvidb.spi.placement.PlacementRequest;

                public final class %s implements PlacementPolicyFactory {
                    @Override
                    public String name() {
                        return "%s";
                    }

                    @Override
                    public PlacementPolicy create() {
                        return new RoundRobin();
                    }

                    private static final class RoundRobin implements PlacementPolicy {
                        private int next;

                        @Override
                        public Optional<Placement> place(PlacementRequest request, List<GpuBudget> candidates) {
                            Map<String, List<Integer>> byNode = new LinkedHashMap<>();
                            for (GpuBudget gpu : candidates) {
                                byNode.computeIfAbsent(gpu.node(), n -> new ArrayList<>()).add(gpu.index());
                            }
                            List<Map.Entry<String, List<Integer>>> fitting = byNode.entrySet().stream()
                                    .filter(e -> e.getValue().size() >= request.gpus())
                                    .toList();
                            if (fitting.isEmpty()) {
                                return Optional.empty();
                            }
                            Map.Entry<String, List<Integer>> chosen = fitting.get(next++ %% fitting.size());
                            return Optional.of(new Placement(chosen.getKey(), chosen.getValue().subList(0, request.gpus())));
                        }
                    }
                }
                """.formatted(className.substring(0, dot), className.substring(dot + 1), pluginName);
        return source(className, source).service(PlacementPolicyFactory.class, className);
    }

    /** Compiles the sources and writes the jar, replacing any file there. */
    public Path writeTo(Path jar) throws IOException {
        Files.createDirectories(jar.toAbsolutePath().getParent());
        Map<String, byte[]> classes = compile();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.forEach((name, value) -> manifest.getMainAttributes().putValue(name, value));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                write(out, c.getKey(), c.getValue());
            }
            for (Map.Entry<String, List<String>> s : services.entrySet()) {
                String lines = String.join("\n", s.getValue()) + "\n";
                write(out, "META-INF/services/" + s.getKey(), lines.getBytes(StandardCharsets.UTF_8));
            }
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                write(out, e.getKey(), e.getValue());
            }
        }
        return jar;
    }

    private static void write(JarOutputStream out, String path, byte[] content) throws IOException {
        out.putNextEntry(new JarEntry(path));
        out.write(content);
        out.closeEntry();
    }

    /** Class files by jar path ({@code a/b/C.class}), compiled against the SPI only. */
    private Map<String, byte[]> compile() {
        if (sources.isEmpty()) {
            return Map.of();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: the tests need a JDK, not a JRE");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> units = new ArrayList<>();
        sources.forEach((name, text) -> units.add(new SourceFile(name, text)));
        List<String> options = List.of("--release", Integer.toString(Runtime.version().feature()), "-proc:none",
                "-classpath", spiLocation().toString());
        try (ClassCollector files = new ClassCollector(javac.getStandardFileManager(diagnostics, null,
                StandardCharsets.UTF_8))) {
            if (!javac.getTask(null, files, diagnostics, options, null, units).call()) {
                throw new IllegalStateException("site plugin sources do not compile: " + diagnostics.getDiagnostics());
            }
            return files.classes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SPI jar (or classes folder) this JVM loaded {@link PluginFactory} from. */
    private static Path spiLocation() {
        try {
            return Path.of(PluginFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the SPI on the test class path", e);
        }
    }

    private static final class SourceFile extends SimpleJavaFileObject {
        private final String text;

        SourceFile(String className, String text) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    /** Keeps javac's output in memory instead of a class output folder. */
    private static final class ClassCollector extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, ByteArrayOutputStream> outputs = new TreeMap<>();

        ClassCollector(StandardJavaFileManager files) {
            super(files);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                FileObject sibling) {
            // With -proc:none javac writes nothing but class files to the class output.
            String path = className.replace('.', '/') + kind.extension;
            return new SimpleJavaFileObject(URI.create("mem:///" + path), kind) {
                @Override
                public OutputStream openOutputStream() {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    outputs.put(path, bytes);
                    return bytes;
                }
            };
        }

        Map<String, byte[]> classes() {
            Map<String, byte[]> out = new TreeMap<>();
            outputs.forEach((path, bytes) -> out.put(path, bytes.toByteArray()));
            return out;
        }
    }
}
