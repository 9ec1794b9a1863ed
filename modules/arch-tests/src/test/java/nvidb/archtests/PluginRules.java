package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules for the plugins shipped in the repository, {@code nvidb.plugins..}. */
final class PluginRules {

    private PluginRules() {}

    /**
     * Rule 2. Among nvidb's own classes a plugin may name only the SPI and plugin packages;
     * anything outside {@code nvidb..} (the JDK, the plugin's own libraries) is allowed. Written as
     * a whitelist so that a new nvidb package (pluginhost, testkit, ...) is forbidden by default.
     */
    @ArchTest
    static final ArchRule PLUGINS_DEPEND_ONLY_ON_SPI = classes()
            .that().resideInAPackage("nvidb.plugins..")
            .should().onlyDependOnClassesThat(
                    resideOutsideOfPackage("nvidb..").or(resideInAnyPackage("nvidb.spi..", "nvidb.plugins..")))
            .because("built-in plugins must be written exactly as a site plugin is, against the SPI"
                    + " alone, never against core, cli or the plugin host");

    /** Addition to rule 2: one plugin does not reach into another; each is its own jar. */
    @ArchTest
    static final ArchRule PLUGINS_ARE_INDEPENDENT = slices()
            .matching("nvidb.plugins.(*)..")
            .should().notDependOnEachOther()
            .because("each plugin ships and loads on its own, so sharing code between plugins must go"
                    + " through the SPI");
}
