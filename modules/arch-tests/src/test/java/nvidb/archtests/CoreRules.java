package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules for {@code nvidb.core..}. */
final class CoreRules {

    private CoreRules() {}

    /** Rule 3. */
    @ArchTest
    static final ArchRule CORE_NAMES_NO_PLUGIN_AND_NO_FRONT_END = noClasses()
            .that().resideInAPackage("nvidb.core..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "nvidb.plugins..", "nvidb.cli..", "nvidb.tui..", "nvidb.pluginhost..",
                    "picocli..", "org.pf4j..", "org.apache.sshd..")
            .because("core reaches nodes, GPUs and notifications only through the SPI, and knows"
                    + " nothing of the command line or of how plugins are loaded");

    /** Rule 4, over every nvidb class, not only core. */
    @ArchTest
    static final ArchRule JDBC_ONLY_IN_STORE = noClasses()
            .that().resideInAPackage("nvidb..")
            .and().resideOutsideOfPackage("nvidb.core.store..")
            .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..")
            .because("SQL and its types stay behind the store's repositories so that the schema can"
                    + " change without touching the scheduler, the services or the commands");

    /** Rule 15. */
    @ArchTest
    static final ArchRule CORE_API_STANDS_ALONE = classes()
            .that().resideInAPackage("nvidb.core.api")
            .should().onlyDependOnClassesThat(resideInAnyPackage("nvidb.core.api", "nvidb.spi..", "java..",
                    "com.fasterxml.jackson..", "com.sun.security.auth.module"))
            .because("the published facade names nothing inside core, so the packages behind it may"
                    + " use its values without a cycle and may change without breaking a client; core"
                    + " is reached through QueueAccess, which core provides as a service (the JDK's"
                    + " UnixSystem is how Caller reads the OS account by uid)");

    /**
     * What a move writes to a job's row ({@code JobChanges}: its state, its hold, its start and end,
     * its attempt) is built and written by the lifecycle alone, and only the lifecycle's purge
     * deletes a row. The store keeps the columns to itself ({@code JobRepository.Column} is not
     * public); a field that is no part of a job's state (its note, priority, lane place, heartbeat)
     * has a method of its own on {@code JobRepository}.
     */
    static final String CHANGES = "nvidb.core.store.JobChanges";

    @ArchTest
    static final ArchRule JOB_STATE_CHANGES_ONLY_IN_LIFECYCLE = noClasses()
            .that().resideOutsideOfPackages("nvidb.core.lifecycle..", "nvidb.core.store..")
            .should().dependOnClassesThat().haveFullyQualifiedName(CHANGES)
            .orShould().callMethod("nvidb.core.store.JobRepository", "update", "long", CHANGES, "java.time.Instant")
            .orShould().callMethod("nvidb.core.store.JobRepository", "delete", "long")
            .because("every change of a job's state (a hold and its release included, and a purge) is a"
                    + " move of nvidb.core.lifecycle.Transition, checked and recorded by the lifecycle in one place");

    /** The documents are built from the facade's values alone, so any front end can print them. */
    @ArchTest
    static final ArchRule VIEWS_STAND_ON_THE_FACADE = classes()
            .that().resideInAPackage("nvidb.core.view")
            .should().onlyDependOnClassesThat(resideInAnyPackage("nvidb.core.view", "nvidb.core.api", "nvidb.spi..",
                    "java..", "com.fasterxml.jackson.."))
            .because("a --json document and the same document from another front end (an HTTP API) are one"
                    + " record built from what the facade returns, written by nvidb.core.api.Json");

    @ArchTest
    static final ArchRule NO_JSON_TREES_BUILT_BY_KEY = noClasses()
            .that().resideInAPackage("nvidb..")
            .should().dependOnClassesThat().haveFullyQualifiedName("com.fasterxml.jackson.databind.node.ObjectNode")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("com.fasterxml.jackson.databind.node.ArrayNode")
            .orShould().dependOnClassesThat().haveFullyQualifiedName(
                    "com.fasterxml.jackson.databind.node.JsonNodeFactory")
            .because("a document is a typed record of nvidb.core.view handed to the one writer"
                    + " (nvidb.core.api.Json), not a tree whose keys are strings spread over the commands");
}
