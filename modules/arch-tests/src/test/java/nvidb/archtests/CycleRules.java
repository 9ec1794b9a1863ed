package nvidb.archtests;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rule 10: no package cycles. */
final class CycleRules {

    private CycleRules() {}

    @ArchTest
    static final ArchRule TOP_LEVEL_PACKAGES_FREE_OF_CYCLES = slices()
            .matching("nvidb.(*)..")
            .should().beFreeOfCycles()
            .because("the modules form a layering (spi <- core <- cli, spi <- plugins), and a cycle"
                    + " between their packages would undo it");

    @ArchTest
    static final ArchRule CORE_PACKAGES_FREE_OF_CYCLES = slices()
            .matching("nvidb.core.(*)..")
            .should().beFreeOfCycles()
            .because("core's packages are layered (the facade's values at the bottom; store, lifecycle and"
                    + " scheduler below what every operation shares (operation); the groups of operations"
                    + " (jobs, lanes, sweeps, nodes, backup) above it; the queue that hands them out, then"
                    + " the daemon, the doctor (health) and access on top), and a cycle makes them one unit"
                    + " that cannot be understood, tested or split apart");

    /**
     * Stricter reading of "no package cycles": every package is its own slice, so a cycle between
     * a package and its own sub-package (nvidb.cli and nvidb.cli.commands) counts too.
     */
    @ArchTest
    static final ArchRule EVERY_PACKAGE_FREE_OF_CYCLES = slices()
            .matching("nvidb.(**)")
            .should().beFreeOfCycles()
            .because("a package that depends on its own sub-package and back is one unit in two"
                    + " folders; every package must sit in a layering of its own");
}
