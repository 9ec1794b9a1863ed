package nvidb.archtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;
import java.util.List;

/**
 * Every architecture rule of nvidb, over the main classes of every module on this module's test
 * class path (one import, cached for all rules). A module is covered once it is a test dependency
 * in this module's pom; the rules name packages, not modules.
 */
@AnalyzeClasses(packages = "nvidb", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchTests SPI = ArchTests.in(SpiRules.class);

    @ArchTest
    static final ArchTests PLUGINS = ArchTests.in(PluginRules.class);

    @ArchTest
    static final ArchTests CORE = ArchTests.in(CoreRules.class);

    @ArchTest
    static final ArchTests CLI = ArchTests.in(CliRules.class);

    @ArchTest
    static final ArchTests TUI = ArchTests.in(TuiRules.class);

    @ArchTest
    static final ArchTests WEB = ArchTests.in(WebRules.class);

    @ArchTest
    static final ArchTests FRONT_ENDS = ArchTests.in(FrontEndRules.class);

    @ArchTest
    static final ArchTests MCP = ArchTests.in(McpRules.class);

    @ArchTest
    static final ArchTests STARTUP = ArchTests.in(StartupRules.class);

    @ArchTest
    static final ArchTests CYCLES = ArchTests.in(CycleRules.class);

    /**
     * Guards against rules passing vacuously: if a module's classes were not imported (a missing
     * dependency, a class file version the importer cannot read), the rules above would see nothing.
     */
    @ArchTest
    static void importsEveryModule(JavaClasses classes) {
        for (String pkg : List.of("nvidb.spi", "nvidb.core.api", "nvidb.core.store", "nvidb.core.queue", "nvidb.cli", "nvidb.pluginhost",
                "nvidb.cli.output", "nvidb.plugins", "nvidb.tui", "nvidb.tui.model", "nvidb.tui.view", "nvidb.tui.run", "nvidb.web", "nvidb.mcp", "nvidb.core.app")) {
            assertTrue(classes.containPackage(pkg), "no classes imported from " + pkg);
        }
        assertTrue(classes.contain(CliRules.MAIN), "no " + CliRules.MAIN + " imported");
        assertTrue(classes.stream().noneMatch(c -> c.getPackageName().startsWith("nvidb.archtests")),
                "test classes were imported");
    }
}
