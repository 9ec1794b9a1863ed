package nvidb.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules for {@code nvidb.spi..}, the plugin API. */
final class SpiRules {

    private SpiRules() {}

    /** Rule 1. */
    @ArchTest
    static final ArchRule SPI_DEPENDS_ON_JDK_ONLY = classes()
            .that().resideInAPackage("nvidb.spi..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "nvidb.spi..")
            .because("a site plugin compiled against the SPI must keep working across core releases,"
                    + " so the SPI may carry nothing but the JDK");

    /** Rule 9 (implied by rule 1, kept so that a pf4j leak fails with its own message). */
    @ArchTest
    static final ArchRule SPI_DOES_NOT_USE_PF4J = noClasses()
            .that().resideInAPackage("nvidb.spi..")
            .should().dependOnClassesThat().resideInAPackage("org.pf4j..")
            .because("pf4j is how the plugin host loads site plugins, not part of the contract a plugin"
                    + " implements, and built-in plugins load through ServiceLoader without it");
}
