package nvidb.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;

/**
 * Habits kept only for start-up, as rules with their reason, so that nobody has to remember them
 * (the figures are in docs/performance.md).
 */
final class StartupRules {
    private StartupRules() {}

    /**
     * Every command opens the store, reads values of the API and prints documents: a pattern
     * {@code switch} there is bootstrapped by {@code java.lang.runtime.SwitchBootstraps} at its first
     * run, which spins a class the AOT cache does not keep (Rows.bind was one, ~1 ms of each
     * command). An {@code if} chain of {@code instanceof} costs nothing.
     */
    @ArchTest
    static final ArchRule NO_PATTERN_SWITCH_ON_EVERY_COMMANDS_PATH = classes()
            .that().resideInAnyPackage("nvidb.core.store..", "nvidb.core.api..", "nvidb.core.view..",
                    "nvidb.core.app..", "nvidb.cli.context..", "nvidb.cli.output..")
            .should(bootstrapNothingFrom("java/lang/runtime/SwitchBootstraps"))
            .because("a pattern switch spins a class at run time (SwitchBootstraps) that the AOT cache does not"
                    + " keep, on the path every command takes");

    private static ArchCondition<JavaClass> bootstrapNothingFrom(String owner) {
        return new ArchCondition<>("bootstrap nothing from " + owner) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                ClassModel model = parse(c);
                boolean uses = model.findAttribute(Attributes.bootstrapMethods()).stream()
                        .flatMap(a -> a.bootstrapMethods().stream())
                        .anyMatch(b -> b.bootstrapMethod().reference().owner().asInternalName().equals(owner));
                if (uses) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + " bootstraps from " + owner));
                }
            }
        };
    }

    private static ClassModel parse(JavaClass c) {
        String resource = c.getName().replace('.', '/') + ".class";
        try (InputStream in = ClassLoader.getSystemResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no class file for " + c.getName());
            }
            return ClassFile.of().parse(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
