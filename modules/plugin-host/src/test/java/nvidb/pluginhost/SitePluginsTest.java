package nvidb.pluginhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.QueueAccess;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.batch.BatchLimits;
import nvidb.spi.batch.BatchPhase;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.batch.BatchSubmission;
import nvidb.spi.placement.GpuBudget;
import nvidb.spi.placement.Placement;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementPolicyFactory;
import nvidb.spi.placement.PlacementRequest;
import nvidb.testkit.SitePluginJarBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class SitePluginsTest {

    private static final List<GpuBudget> TWO_NODES = List.of(
            new GpuBudget("node-a", 0, 40_000, 80_000, 0),
            new GpuBudget("node-a", 1, 40_000, 80_000, 0),
            new GpuBudget("node-b", 2, 40_000, 80_000, 0),
            new GpuBudget("node-b", 3, 40_000, 80_000, 0));

    @TempDir
    Path home;

    private Path plugins;

    @BeforeEach
    void createPluginFolder() throws IOException {
        plugins = Files.createDirectories(home.resolve("plugins"));
    }

    @Test
    void loadsAPlacementFactoryFromAJarBuiltAtTestTime() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("roundrobin", "1.4.2")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("roundrobin.jar"));

        List<PluginEntry> entries = SitePlugins.load(List.of(home.resolve("no-such-folder"), plugins));

        assertEquals(1, entries.size());
        PluginEntry entry = entries.getFirst();
        assertEquals("roundrobin-test", entry.name());
        assertEquals(PluginKind.PLACEMENT, entry.kind());
        assertEquals(jar.toString(), entry.origin());
        assertEquals("1.4.2", entry.factory().version());
        PlacementPolicy policy = assertInstanceOf(PlacementPolicyFactory.class, entry.factory()).create();
        PlacementRequest twoGpus = new PlacementRequest(7, 2, 10_000);
        assertEquals(Optional.of(new Placement("node-a", List.of(0, 1))), policy.place(twoGpus, TWO_NODES));
        assertEquals(Optional.of(new Placement("node-b", List.of(2, 3))), policy.place(twoGpus, TWO_NODES));
        assertEquals(Optional.of(new Placement("node-a", List.of(0, 1))), policy.place(twoGpus, TWO_NODES));
        assertEquals(Optional.empty(), policy.place(new PlacementRequest(8, 3, 10_000), TWO_NODES));
    }

    @Test
    void aBatchSchedulerFromASiteJarIsABatchSchedulerNotATransport() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("pbs", "0.3.0")
                .source("site.pbs.PbsFactory", """
                        package site.pbs;
                        import java.util.List;
                        import java.util.Map;
                        import nvidb.spi.batch.*;
                        public final class PbsFactory implements BatchSchedulerFactory {
                            @Override public String name() { return "pbs"; }
                            @Override public BatchScheduler create(Map<String, Object> entry) {
                                String queue = String.valueOf(entry.get("queue"));
                                return new BatchScheduler() {
                                    public String system() { return "pbs"; }
                                    public BatchLimits limits() { return new BatchLimits(0, 0, false); }
                                    public String submitFunction(BatchSubmission job) { return "qsub -q " + queue; }
                                    public String pollFunction(List<String> ids) { return "qstat"; }
                                    public BatchPoll parsePoll(String output) { return new BatchPoll(Map.of(), 0, 0, 0); }
                                    public String cancelFunction() { return "qdel $1"; }
                                };
                            }
                        }
                        """)
                .service(BatchSchedulerFactory.class, "site.pbs.PbsFactory")
                .writeTo(plugins.resolve("pbs.jar"));

        PluginEntry entry = SitePlugins.load(List.of(plugins)).getFirst();

        assertEquals("pbs", entry.name());
        assertEquals(PluginKind.BATCH_SCHEDULER, entry.kind());
        assertEquals(jar.toString(), entry.origin());
        BatchScheduler scheduler = assertInstanceOf(BatchSchedulerFactory.class, entry.factory())
                .create(java.util.Map.of("queue", "gpuq"));
        assertEquals("qsub -q gpuq", scheduler.submitFunction(new BatchSubmission(1, 1, null)));
    }

    /** config-examples/site-plugin, as its README builds it: manifest, service file and sources. */
    @Test
    void theSitePluginExampleBuildsLoadsAndReadsPbs() throws IOException {
        Path example = Path.of("../../config-examples/site-plugin"); // Maven runs the tests in modules/plugin-host
        java.util.Properties manifest = new java.util.Properties();
        try (InputStream in = Files.newInputStream(example.resolve("MANIFEST.MF"))) {
            manifest.load(in);
        }
        SitePluginJarBuilder jar = SitePluginJarBuilder.plugin(manifest.getProperty("Plugin-Id"),
                manifest.getProperty("Plugin-Version"));
        for (String name : List.of("PbsSchedulerFactory", "PbsScheduler")) {
            jar.source("site.pbs." + name, Files.readString(example.resolve("src/site/pbs/" + name + ".java")));
        }
        for (String line : Files.readAllLines(example.resolve("META-INF/services/" + BatchSchedulerFactory.class.getName()))) {
            jar.service(BatchSchedulerFactory.class, line.strip());
        }
        jar.writeTo(plugins.resolve("pbs.jar"));

        PluginEntry entry = SitePlugins.load(List.of(plugins)).getFirst();
        assertEquals("pbs", entry.name());
        assertEquals(PluginKind.BATCH_SCHEDULER, entry.kind());
        assertEquals("0.1.0", entry.factory().version());
        BatchScheduler pbs = assertInstanceOf(BatchSchedulerFactory.class, entry.factory())
                .create(java.util.Map.of("pbs_queue", "gpu", "gpu_vram_mb", 40960L, "max_jobs", 16L, "burst", true));
        assertEquals(new BatchLimits(40960, 16, true), pbs.limits());
        String submit = pbs.submitFunction(new BatchSubmission(42, 2, 3600));
        assertTrue(submit.contains("qsub -q 'gpu' -N nvidb-42") && submit.contains("ngpus=2")
                && submit.contains("walltime=3600"), submit);
        BatchPoll poll = pbs.parsePoll("qstat_rc=0\nJ|12.srv|R\nJ|13.srv|Q\npbsnodes_rc=0\nG|8|3\n");
        assertEquals(BatchPhase.RUNNING, poll.jobs().get("12.srv").phase());
        assertEquals(BatchPhase.QUEUED, poll.jobs().get("13.srv").phase());
        assertEquals(5, poll.gpusIdle());
        assertThrows(IllegalStateException.class, () -> pbs.parsePoll("pbsnodes_rc=124\nG|0|0\n"));
    }

    @Test
    void aPluginSeesTheSpiOfTheApplicationAndNothingElseOfIt() throws Exception {
        SitePluginJarBuilder.plugin("roundrobin", "1.0.0")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("roundrobin.jar"));

        ClassLoader loader = SitePlugins.load(List.of(plugins)).getFirst().factory().getClass().getClassLoader();

        assertNotSame(getClass().getClassLoader(), loader);
        assertSame(PlacementPolicyFactory.class, loader.loadClass(PlacementPolicyFactory.class.getName()));
        assertSame(Placement.class, loader.loadClass(Placement.class.getName()));
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass(QueueAccess.class.getName()));
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass(SitePlugins.class.getName()));
    }

    @Test
    void aCopyOfTheSpiBundledInThePluginIsNotUsed() throws IOException {
        SitePluginJarBuilder jar = SitePluginJarBuilder.plugin("bundles-spi", "2.0.0")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test");
        for (Class<?> spiType : List.of(PluginFactory.class, PluginKind.class, PlacementPolicyFactory.class,
                PlacementPolicy.class, Placement.class, PlacementRequest.class, GpuBudget.class)) {
            jar.entry(spiType.getName().replace('.', '/') + ".class", classFile(spiType));
        }
        jar.writeTo(plugins.resolve("bundles-spi.jar"));

        PluginFactory factory = SitePlugins.load(List.of(plugins)).getFirst().factory();

        PlacementPolicy policy = assertInstanceOf(PlacementPolicyFactory.class, factory).create();
        assertEquals(Optional.of(new Placement("node-a", List.of(0))),
                policy.place(new PlacementRequest(1, 1, 1_000), TWO_NODES));
    }

    @Test
    void twoJarsWithOnePluginNameMakeTheRegistryFailNamingBoth() throws IOException {
        Path first = SitePluginJarBuilder.plugin("rr-one", "1.0.0")
                .roundRobinPlacement("site.one.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("one.jar"));
        Path second = SitePluginJarBuilder.plugin("rr-two", "1.0.0")
                .roundRobinPlacement("site.two.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("two.jar"));

        List<PluginEntry> entries = SitePlugins.load(List.of(plugins));
        assertEquals(2, entries.size());
        NvidbException e;
        try (QueueAccess core = QueueAccess.open(java.util.Map.of("NVIDB_HOME", plugins.toString()), null,
                false, home -> entries)) {
            e = assertThrows(NvidbException.class, core::plugins);
        }

        assertEquals(ErrorCode.FAILED, e.code());
        assertContains(e.getMessage(), "'roundrobin-test'", "site.one.RoundRobinFactory (" + first + ")",
                "site.two.RoundRobinFactory (" + second + ")");
    }

    @Test
    void aCorruptJarFailsNamingTheFile() throws IOException {
        byte[] noise = new byte[4096];
        new Random(42).nextBytes(noise);
        Path jar = Files.write(plugins.resolve("corrupt.jar"), noise);

        assertFailure(() -> SitePlugins.load(List.of(plugins)), "cannot load site plugin " + jar + ": ");
    }

    @Test
    void aManifestWithoutPluginVersionFailsNamingTheAttribute() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("unversioned", "1.0.0")
                .attribute("Plugin-Version", null)
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("unversioned.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), jar.toString(), "Plugin-Version");
    }

    @Test
    void aJarThatListsNoFactoryFailsSayingWhereToListThem() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("empty", "1.0.0")
                .source("site.Nothing", "package site; public final class Nothing {}")
                .writeTo(plugins.resolve("empty.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), jar.toString(),
                "META-INF/services/nvidb.spi.placement.PlacementPolicyFactory");
    }

    @Test
    void aServiceFileNamingAMissingClassFailsNamingTheClass() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("typo", "1.0.0")
                .service(PlacementPolicyFactory.class, "site.rr.RoundRobinFactroy")
                .writeTo(plugins.resolve("typo.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), jar.toString(), "site.rr.RoundRobinFactroy");
    }

    @Test
    void aNameConfigurationCannotSpellFails() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("shouting", "1.0.0")
                .source("site.Shouting", placementFactory("Shouting", "return \"Round Robin\";", ""))
                .service(PlacementPolicyFactory.class, "site.Shouting")
                .writeTo(plugins.resolve("shouting.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), jar.toString(), "site.Shouting", "'Round Robin'");
    }

    @Test
    void aFactoryListedUnderAnotherKindThanItsOwnFails() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("confused", "1.0.0")
                .source("site.Confused", placementFactory("Confused", "return \"confused\";",
                        "@Override public nvidb.spi.PluginKind kind() { return nvidb.spi.PluginKind.PROBE; }"))
                .service(PlacementPolicyFactory.class, "site.Confused")
                .writeTo(plugins.resolve("confused.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), jar.toString(), "site.Confused", "PROBE");
    }

    @Test
    void disabledTxtInTheFirstFolderSwitchesOffAPluginOfALaterFolder() throws IOException {
        Path distribution = Files.createDirectories(home.resolve("dist-plugins"));
        SitePluginJarBuilder.plugin("rr-shipped", "1.0.0")
                .roundRobinPlacement("site.shipped.RoundRobinFactory", "roundrobin-shipped")
                .writeTo(distribution.resolve("shipped.jar"));
        Path kept = SitePluginJarBuilder.plugin("rr-kept", "1.0.0")
                .roundRobinPlacement("site.kept.RoundRobinFactory", "roundrobin-kept")
                .writeTo(distribution.resolve("kept.jar"));
        Files.writeString(plugins.resolve("disabled.txt"), "rr-shipped\n");

        List<PluginEntry> entries = SitePlugins.load(List.of(plugins, distribution));

        assertEquals(List.of("roundrobin-kept"), entries.stream().map(PluginEntry::name).toList());
        assertEquals(kept.toString(), entries.getFirst().origin());
    }

    @Test
    void aMissingDependencyFailsNamingTheJarThatNeedsIt() throws IOException {
        Path jar = SitePluginJarBuilder.plugin("needy", "1.0.0")
                .attribute("Plugin-Dependencies", "base-plugin")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("needy.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), "site plugin " + jar, "'base-plugin'");
    }

    @Test
    void aDependencyCycleFailsNamingTheJars() throws IOException {
        Path a = SitePluginJarBuilder.plugin("cycle-a", "1.0.0").attribute("Plugin-Dependencies", "cycle-b")
                .roundRobinPlacement("site.a.RoundRobinFactory", "roundrobin-a")
                .writeTo(plugins.resolve("a.jar"));
        Path b = SitePluginJarBuilder.plugin("cycle-b", "1.0.0").attribute("Plugin-Dependencies", "cycle-a")
                .roundRobinPlacement("site.b.RoundRobinFactory", "roundrobin-b")
                .writeTo(plugins.resolve("b.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins)), a.toString(), b.toString(), "Plugin-Dependencies");
    }

    @Test
    void aDependencyInAnotherFolderIsFoundAndItsClassesShared() throws IOException {
        Path distribution = Files.createDirectories(home.resolve("dist-plugins"));
        SitePluginJarBuilder.plugin("base", "1.0.0")
                .source("site.base.Picker", """
                        package site.base;
                        public final class Picker {
                            public static String name() { return "from-base"; }
                        }
                        """)
                .roundRobinPlacement("site.base.RoundRobinFactory", "roundrobin-base")
                .writeTo(distribution.resolve("base.jar"));
        // Compiled against the SPI only, so the dependent reaches Picker by name at run time.
        SitePluginJarBuilder.plugin("dependent", "1.0.0").attribute("Plugin-Dependencies", "base")
                .source("site.dep.Dependent", placementFactory("Dependent", """
                        try {
                            return (String) Class.forName("site.base.Picker").getMethod("name").invoke(null);
                        } catch (ReflectiveOperationException e) {
                            throw new IllegalStateException(e);
                        }
                        """, "").replace("package site;", "package site.dep;"))
                .service(PlacementPolicyFactory.class, "site.dep.Dependent")
                .writeTo(plugins.resolve("dependent.jar"));

        List<PluginEntry> entries = SitePlugins.load(List.of(plugins, distribution));

        assertEquals(List.of("from-base", "roundrobin-base"),
                entries.stream().map(PluginEntry::name).toList());
    }

    @Test
    void missingFoldersNonJarFilesAndAFolderReachedTwiceAddNothing() throws IOException {
        Files.writeString(plugins.resolve("README.md"), "drop plugin jars here\n");
        Files.createDirectories(plugins.resolve("not-a-plugin.jar"));

        assertEquals(List.of(), SitePlugins.load(List.of(home.resolve("missing"))));
        assertEquals(List.of(), SitePlugins.load(List.of(plugins)));

        SitePluginJarBuilder.plugin("roundrobin", "1.0.0")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("roundrobin.jar"));
        Path sameFolder = Files.createSymbolicLink(home.resolve("plugins-link"), plugins);
        assertEquals(1, SitePlugins.load(List.of(plugins, sameFolder)).size());
    }

    @Test
    void onePluginIdInTwoFoldersFailsNamingBothJars() throws IOException {
        Path distribution = Files.createDirectories(home.resolve("dist-plugins"));
        Path user = SitePluginJarBuilder.plugin("roundrobin", "1.1.0")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(plugins.resolve("roundrobin.jar"));
        Path shipped = SitePluginJarBuilder.plugin("roundrobin", "1.0.0")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin-test")
                .writeTo(distribution.resolve("roundrobin.jar"));

        assertFailure(() -> SitePlugins.load(List.of(plugins, distribution)), "cannot load site plugin " + shipped,
                "'roundrobin' is also that of " + user);
    }

    /** A placement factory in package {@code site} whose {@code name()} body is given. */
    private static String placementFactory(String simpleName, String nameBody, String extraMembers) {
        return """
                package site;
                public final class %s implements nvidb.spi.placement.PlacementPolicyFactory {
                    @Override public String name() { %s }
                    @Override public nvidb.spi.placement.PlacementPolicy create() {
                        return (request, candidates) -> java.util.Optional.empty();
                    }
                    %s
                }
                """.formatted(simpleName, nameBody, extraMembers);
    }

    private static byte[] classFile(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }

    private static void assertFailure(Executable load, String... expectedParts) {
        NvidbException e = assertThrows(NvidbException.class, load);
        assertEquals(ErrorCode.FAILED, e.code());
        assertContains(e.getMessage(), expectedParts);
        assertTrue(!e.getMessage().contains("\tat "), "a sentence, not a stack trace: " + e.getMessage());
    }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), () -> "expected '" + part + "' in: " + message);
        }
    }
}
