package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules for {@code nvidb.tui..}, the queue on a terminal. */
final class TuiRules {

    private TuiRules() {}

    /** Like the CLI: one published surface, so the TUI obeys every rule a command does. */
    @ArchTest
    static final ArchRule TUI_USES_CORE_API_ONLY = classes()
            .that().resideInAPackage("nvidb.tui..")
            .should().onlyDependOnClassesThat(resideOutsideOfPackage("nvidb.core..").or(resideInAnyPackage(
                    FrontEndRules.APPLICATION_API)))
            .because("every key of the TUI is the same operation of the application layer as a CLI command,"
                    + " never the store or the scheduler behind it");

    @ArchTest
    static final ArchRule TUI_NAMES_NO_OTHER_FRONT_END_OR_PLUGIN = noClasses()
            .that().resideInAPackage("nvidb.tui..")
            .should().dependOnClassesThat().resideInAnyPackage("nvidb.cli..", "nvidb.web..", "nvidb.plugins..", "nvidb.pluginhost..",
                    "picocli..")
            .because("the TUI is a front end of its own beside the CLI; the CLI starts it, not the other way round");

    /** What the screen shows and what a key does are tested without a terminal. */
    @ArchTest
    static final ArchRule MODEL_AND_VIEW_KNOW_NO_TERMINAL = noClasses()
            .that().resideInAnyPackage("nvidb.tui.model..", "nvidb.tui.view..")
            .should().dependOnClassesThat().resideInAnyPackage("org.jline..", "nvidb.tui.run..")
            .because("the model and the drawing are plain values and functions, unit-tested without a terminal;"
                    + " only nvidb.tui.run touches JLine and the workers");

    @ArchTest
    static final ArchRule ONLY_THE_TUI_USES_JLINE = noClasses()
            .that().resideOutsideOfPackage("nvidb.tui.run..")
            .and().resideInAPackage("nvidb..")
            .should().dependOnClassesThat().resideInAPackage("org.jline..")
            .because("the terminal library stays in one package, out of every other command's start-up path");
}
