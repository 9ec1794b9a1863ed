package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.SimpleConditionEvent.violated;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Rules for {@code nvidb.cli..} and the things only it may do. */
final class CliRules {

    static final String MAIN = "nvidb.cli.Main";

    private CliRules() {}

    /** Rule 5. Core publishes its facade and the documents made of it; the rest is core's own to restructure. */
    @ArchTest
    static final ArchRule CLI_USES_CORE_FACADE_ONLY = classes()
            .that().resideInAPackage("nvidb.cli..")
            .should().onlyDependOnClassesThat(resideOutsideOfPackage("nvidb.core..").or(resideInAnyPackage(
                    FrontEndRules.APPLICATION_API)))
            .because("commands are thin: they call the application layer (nvidb.core.app, with the values of"
                    + " nvidb.core.api it takes and returns) and print what it returns as the records of"
                    + " nvidb.core.view,"
                    + " never the store, the scheduler or the configuration behind it; the TUI and the daemon"
                    + " are built on the same facade, so one published surface keeps the rest of core free to"
                    + " change");

    /** Rule 6. */
    @ArchTest
    static final ArchRule ONLY_CLI_USES_PICOCLI = noClasses()
            .that().resideOutsideOfPackage("nvidb.cli..")
            .should().dependOnClassesThat().resideInAPackage("picocli..")
            .because("the command line is one front end; everything below it must be usable without"
                    + " picocli");

    /** Rule 7. */
    @ArchTest
    static final ArchRule SYSTEM_EXIT_ONCE_IN_MAIN = classes()
            .should(exitTheJvmOnlyOnceIn(MAIN))
            .because("the exit code is decided in one place from the error code (decisions.md §5);"
                    + " anywhere else an exit would skip that mapping and kill tests and embedders");

    /** Rule 8. */
    @ArchTest
    static final ArchRule STANDARD_STREAMS_ONLY_IN_OUTPUT = noClasses()
            .that().resideOutsideOfPackage("nvidb.cli.output..")
            .should().accessField(System.class, "out")
            .orShould().accessField(System.class, "err")
            .because("what a command prints is a contract (one JSON document per command), so every"
                    + " byte on stdout and stderr goes through the output package's printers");

    /**
     * Every call or method reference to {@code System.exit}, {@code Runtime.exit} or
     * {@code Runtime.halt} must sit in {@code mainClass} (lambdas of it included), and there must be
     * exactly one such place.
     */
    static ArchCondition<JavaClass> exitTheJvmOnlyOnceIn(String mainClass) {
        return new ArchCondition<>("call System.exit only in " + mainClass + ", in exactly one place") {
            private final List<JavaCodeUnitAccess<?>> inMain = new ArrayList<>();

            @Override
            public void init(Collection<JavaClass> allObjectsToTest) {
                inMain.clear();
            }

            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                for (JavaCodeUnitAccess<?> access : javaClass.getCodeUnitAccessesFromSelf()) {
                    if (!exitsTheJvm(access)) {
                        continue;
                    }
                    if (access.getOriginOwner().getName().equals(mainClass)) {
                        inMain.add(access);
                    } else {
                        events.add(violated(access, access.getDescription()));
                    }
                }
            }

            @Override
            public void finish(ConditionEvents events) {
                if (inMain.size() != 1) {
                    StringBuilder message = new StringBuilder()
                            .append(mainClass).append(" exits the JVM in ").append(inMain.size())
                            .append(" places, expected exactly 1");
                    for (JavaCodeUnitAccess<?> access : inMain) {
                        message.append(System.lineSeparator()).append("  ").append(access.getDescription());
                    }
                    events.add(violated(mainClass, message.toString()));
                }
            }
        };
    }

    private static boolean exitsTheJvm(JavaCodeUnitAccess<?> access) {
        JavaClass owner = access.getTargetOwner();
        String name = access.getName();
        return (owner.isEquivalentTo(System.class) && name.equals("exit"))
                || (owner.isEquivalentTo(Runtime.class) && (name.equals("exit") || name.equals("halt")));
    }
}
