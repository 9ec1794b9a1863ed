package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Rules the front ends keep: they are peers over one application layer ({@code nvidb.core.app}),
 * none reaching past it.
 */
final class FrontEndRules {
    /** What a front end may name of core: the operations, the values they take and the documents they return. */
    static final String[] APPLICATION_API = {"nvidb.core.app", "nvidb.core.api", "nvidb.core.view"};

    /**
     * The engine's own facades, which the application layer is built on. A front end that called
     * one would act without its Caller, outside the rules that live in the application layer once
     * for every front end (who may act on whose job, quotas).
     */
    private static final String ENGINE_FACADES = "nvidb\\.core\\.api\\.(Queue|JobCommands|JobEdits|JobQueries|NodeAdmin"
            + "|LaneQueries|LaneOrdering|LaneRunners|Sweeps|Backups|History)";

    private FrontEndRules() {}

    @ArchTest
    static final ArchRule FRONT_ENDS_ACT_THROUGH_THE_APPLICATION_LAYER = noClasses()
            .that().resideInAnyPackage("nvidb.cli..", "nvidb.web..", "nvidb.tui..", "nvidb.mcp..")
            .should().callMethodWhere(target(owner(nameMatching(ENGINE_FACADES))))
            .because("a command, a route, a tool or a key is an operation of nvidb.core.app, asked with the front end's"
                    + " Caller: the events it writes record who asked, and the rules about who may do what apply");
}
