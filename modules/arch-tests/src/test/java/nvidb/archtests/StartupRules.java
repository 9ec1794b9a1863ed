package nvidb.archtests;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
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
import java.lang.classfile.constantpool.InvokeDynamicEntry;
import java.util.Map;
import java.util.Set;

/**
 * Habits kept only for start-up, as rules with their reason, so that nobody has to remember them
 * (the figures are in docs/performance.md). Each is about a class the JDK would spin at run time:
 * the AOT cache holds the classes the training loaded and nvidb's own lambdas, but not what a
 * bootstrap method or a JDK method makes when first called, so each such call costs every command
 * that makes it (seen with {@code NVIDB_JAVA_OPTS=-Xlog:class+load}: a class whose source is not the
 * shared objects file).
 */
final class StartupRules {
    /** What every command runs: the store, the values of the API, the documents and the CLI around a command. */
    private static final String[] EVERY_COMMANDS_PATH = {"nvidb.core.store..", "nvidb.core.api..", "nvidb.core.view..",
        "nvidb.core.app..", "nvidb.cli.context..", "nvidb.cli.output..", "nvidb.cli.startup"};

    /** The above, and the scheduler's pass, which every command that ticks runs (placement included). */
    private static final String[] EVERY_PASS_TOO = {"nvidb.core.store..", "nvidb.core.api..", "nvidb.core.view..",
        "nvidb.core.app..", "nvidb.cli.context..", "nvidb.cli.output..", "nvidb.cli.startup", "nvidb.core.scheduler..",
        "nvidb.core.lanes..", "nvidb.plugins.placement.."};

    private StartupRules() {}

    /**
     * Every command opens the store, reads values of the API and prints documents: a pattern
     * {@code switch} there is bootstrapped by {@code java.lang.runtime.SwitchBootstraps} at its first
     * run, which spins a class the AOT cache does not keep (Rows.bind was one, ~1 ms of each
     * command). An {@code if} chain of {@code instanceof} costs nothing.
     */
    @ArchTest
    static final ArchRule NO_PATTERN_SWITCH_ON_EVERY_COMMANDS_PATH = classes()
            .that().resideInAnyPackage(EVERY_PASS_TOO).or().resideInAnyPackage("nvidb.core.config..", "nvidb.core.node..")
            .should(bootstrapNothingFrom("java/lang/runtime/SwitchBootstraps"))
            .because("a pattern switch spins a class at run time (SwitchBootstraps) that the AOT cache does not"
                    + " keep, on the path every command takes (the configuration, the nodes' connections) or every"
                    + " scheduler pass (a submit's, a read's)");

    /**
     * {@code Comparator.comparing…} and {@code thenComparing…} return lambdas of the JDK's own
     * {@code Comparator}, which the AOT cache does not hold: they are spun at their first call.
     * Measured with {@code Job}'s two orders built so (every command that reads a job makes them):
     * three {@code Comparator$$Lambda} classes and a {@code LambdaForm$DMH} spun, ~1 ms apart after
     * the first (docs/performance.md). A comparator written as one lambda of ours costs nothing.
     */
    @ArchTest
    static final ArchRule NO_COMPARATOR_COMBINATORS_ON_EVERY_COMMANDS_PATH = noClasses()
            .that().resideInAnyPackage(EVERY_PASS_TOO)
            .should().callMethodWhere(target(owner(nameMatching("java\\.util\\.Comparator")))
                    .and(target(nameMatching("(then)?[cC]omparing.*"))))
            .because("the JDK spins the lambdas Comparator.comparing and thenComparing return at run time (the AOT"
                    + " cache holds nvidb's own lambdas, not the JDK's), on the path every command or every"
                    + " scheduler pass takes: write the order out as one comparator");

    /**
     * A record's own {@code equals} and {@code hashCode} are bootstrapped by
     * {@code java.lang.runtime.ObjectMethods} at their first call, through method handles: measured
     * with {@code LeaseRepository.Held} left to the record (every command that takes the scheduler
     * lease adds one to a hash set), 12 {@code LambdaForm$MH} classes spun and a tick ~10 ms slower
     * (docs/performance.md). A record kept in a hash set or as a map's key on that path writes both
     * out. (Seen through fields' generic types: a local set of records is not.)
     */
    @ArchTest
    static final ArchRule RECORDS_KEPT_AS_HASH_KEYS_WRITE_EQUALS_AND_HASH_CODE = fields()
            .that().areDeclaredInClassesThat().resideInAnyPackage(EVERY_PASS_TOO)
            .should(notHashRecordsWithGeneratedEqualsOrHashCode())
            .because("a record's generated equals and hashCode bootstrap through method handles (ObjectMethods) at"
                    + " their first call, spinning classes the AOT cache does not keep");

    private static ArchCondition<JavaField> notHashRecordsWithGeneratedEqualsOrHashCode() {
        return new ArchCondition<>("not hash records whose equals or hashCode is the generated one") {
            @Override
            public void check(JavaField field, ConditionEvents events) {
                JavaType type = field.getType();
                if (!(type instanceof JavaParameterizedType p) || p.getActualTypeArguments().isEmpty()
                        || !(p.toErasure().isAssignableTo(Set.class) || p.toErasure().isAssignableTo(Map.class))) {
                    return;
                }
                if (p.getActualTypeArguments().getFirst() instanceof JavaClass key && key.isRecord()
                        && key.getPackageName().startsWith("nvidb.")) {
                    Set<String> generated = bootstrapped(parse(key), "java/lang/runtime/ObjectMethods");
                    if (generated.contains("equals") || generated.contains("hashCode")) {
                        events.add(SimpleConditionEvent.violated(field, field.getFullName() + " hashes "
                                + key.getName() + ", whose " + generated + " the record generates"));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> bootstrapNothingFrom(String owner) {
        return new ArchCondition<>("bootstrap nothing from " + owner) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                if (!bootstrapped(parse(c), owner).isEmpty()) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + " bootstraps from " + owner));
                }
            }
        };
    }

    /** The names of the call sites (invokedynamic) of {@code model} bootstrapped by a method of {@code owner}. */
    private static Set<String> bootstrapped(ClassModel model, String owner) {
        Set<String> names = new java.util.TreeSet<>();
        if (model.findAttribute(Attributes.bootstrapMethods()).isEmpty()) {
            return names;
        }
        for (var entry : model.constantPool()) {
            if (entry instanceof InvokeDynamicEntry indy
                    && indy.bootstrap().bootstrapMethod().reference().owner().asInternalName().equals(owner)) {
                names.add(indy.name().stringValue());
            }
        }
        return names;
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
