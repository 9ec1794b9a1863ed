package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules for {@code nvidb.web..}, the queue in a browser. */
final class WebRules {

    private WebRules() {}

    @ArchTest
    static final ArchRule WEB_USES_CORE_API_ONLY = classes()
            .that().resideInAPackage("nvidb.web..")
            .should().onlyDependOnClassesThat(resideOutsideOfPackage("nvidb.core..").or(resideInAnyPackage(
                    FrontEndRules.APPLICATION_API)))
            .because("every route of the web is an operation of the application layer (nvidb.core.app), whose"
                    + " documents (nvidb.core.view) it serves: the same operation, checks and document as the CLI's");

    @ArchTest
    static final ArchRule WEB_NAMES_NO_OTHER_FRONT_END_OR_PLUGIN = noClasses()
            .that().resideInAPackage("nvidb.web..")
            .should().dependOnClassesThat().resideInAnyPackage("nvidb.cli..", "nvidb.tui..", "nvidb.plugins..",
                    "nvidb.pluginhost..", "picocli..")
            .because("the web is a front end of its own beside the CLI; the CLI starts it, not the other way round");

    /**
     * No class of the web loads unless {@code queue web} or the daemon runs: only they name it, and
     * jdk.httpserver stays out of every other command's start.
     */
    @ArchTest
    static final ArchRule ONLY_QUEUE_WEB_AND_THE_DAEMON_START_THE_WEB = noClasses()
            .that().resideInAPackage("nvidb..")
            .and().resideOutsideOfPackage("nvidb.web..")
            .and().doNotHaveFullyQualifiedName("nvidb.cli.commands.QueueWeb")
            .and().doNotHaveFullyQualifiedName("nvidb.cli.commands.QueueDaemon")
            .and().resideOutsideOfPackage("nvidb.testkit..")
            .should().dependOnClassesThat().resideInAnyPackage("nvidb.web..", "com.sun.net.httpserver..")
            .because("job submit and every other command must not pay for the web server's classes at start-up");

    @ArchTest
    static final ArchRule ONLY_THE_WEB_USES_THE_HTTP_SERVER = noClasses()
            .that().resideOutsideOfPackage("nvidb.web..")
            .and().resideInAPackage("nvidb..")
            .and().resideOutsideOfPackage("nvidb.testkit..")
            .should().dependOnClassesThat().resideInAPackage("com.sun.net.httpserver..")
            .because("the HTTP server stays in one module");
}
