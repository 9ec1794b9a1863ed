package nvidb.cli.startup.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.constant.ConstantDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.invoke.MethodType;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Build time: the records of {@code nvidb.core.view} a command's {@code --json} answer is made of,
 * whose serialisers {@link nvidb.cli.startup.JsonWarmUp} builds while the queue opens. Read from
 * the command's bytecode (the JDK's class-file API), from its own methods and those of its package
 * they call (a superclass, a helper, the class a subcommand is nested in):
 *
 * <ul>
 * <li>every method of {@code nvidb.core.app} called gives its generic return type, whose view
 *     classes count, through type arguments ({@code Acted<Several<Cancelled>>}) and through the
 *     components of the application layer's own records ({@code SweepOperations.Waited});
 * <li>every view record made with {@code new}, and what a static factory of a view class returns
 *     ({@code TickView.of}).
 * </ul>
 *
 * <p>Then what Jackson leaves to the first write: it builds the serialisers of a record's
 * components with the record's own only where the component's declared type is a final class; a
 * list, a map or an interface (a sealed one: {@code TickView}) is looked up by the class of each
 * value, when written. So the view records such a component names (its type arguments, a sealed
 * interface's records) are in the list too, and so on through theirs. A record component of a
 * final type is not listed: it is built with its holder.
 */
final class JsonDocuments {
    private static final String APP = "nvidb.core.app.";
    private static final String VIEW = "nvidb.core.view.";

    private final Class<?> command;
    private final ClassLoader loader;
    private final String commandPackage;
    private final Map<String, ClassModel> parsed = new HashMap<>();
    private final Set<String> scanned = new HashSet<>();
    private final Set<Class<?>> documents = new LinkedHashSet<>();
    private final Set<Class<?>> walked = new HashSet<>();

    private JsonDocuments(Class<?> command) {
        this.command = command;
        this.loader = command.getClassLoader();
        this.commandPackage = command.getPackageName();
    }

    /**
     * The view classes {@code command}'s answer is made of, by name: the documents, in the order
     * the bytecode meets them, then what they hold that Jackson leaves to the first write.
     */
    static List<String> of(Class<?> command) {
        JsonDocuments d = new JsonDocuments(command);
        d.scan(command.getName(), "execute", "()I"); // BaseCommand's: what runs when the command line does
        List<Class<?>> order = new ArrayList<>(d.documents);
        for (int i = 0; i < order.size(); i++) {
            Set<Class<?>> held = new LinkedHashSet<>();
            d.components(order.get(i), held);
            for (Class<?> h : held) {
                if (d.documents.add(h)) {
                    order.add(h);
                }
            }
        }
        List<String> names = new ArrayList<>();
        for (Class<?> c : order) {
            names.add(c.getName());
        }
        return names;
    }

    /**
     * The method {@code owner.name descriptor}, or the one a superclass in the package declares; on
     * the command object itself (a call on {@code this}), the one the command's class runs.
     */
    private void scan(String owner, String name, String descriptor) {
        String start = load(owner).isAssignableFrom(command) && !name.equals("<init>") ? command.getName() : owner;
        for (String c = start; c != null && inPackage(c); c = superclass(c)) {
            Optional<MethodModel> method = classModel(c).methods().stream()
                    .filter(m -> m.methodName().equalsString(name) && m.methodType().equalsString(descriptor))
                    .findFirst();
            if (method.isPresent()) {
                if (scanned.add(c + "." + name + descriptor)) {
                    method.get().code().ifPresent(code -> code.forEach(this::instruction));
                }
                return;
            }
        }
    }

    private void instruction(CodeElement e) {
        if (e instanceof InvokeInstruction i) {
            call(i.owner().asInternalName().replace('/', '.'), i.name().stringValue(), i.type().stringValue(),
                    i.opcode() == Opcode.INVOKESTATIC);
        } else if (e instanceof NewObjectInstruction n) {
            String type = n.className().asInternalName().replace('/', '.');
            if (type.startsWith(VIEW)) {
                add(load(type), documents);
            }
        } else if (e instanceof InvokeDynamicInstruction d) {
            // A method reference or a lambda's body: the method it names is called too.
            for (ConstantDesc arg : d.bootstrapArgs()) {
                if (arg instanceof DirectMethodHandleDesc h && h.owner().isClassOrInterface()) {
                    String owner = h.owner().descriptorString();
                    call(owner.substring(1, owner.length() - 1).replace('/', '.'), h.methodName(),
                            h.lookupDescriptor(), h.kind() == DirectMethodHandleDesc.Kind.STATIC
                                    || h.kind() == DirectMethodHandleDesc.Kind.INTERFACE_STATIC);
                }
            }
        }
    }

    private void call(String owner, String name, String descriptor, boolean isStatic) {
        if (name.equals("<init>")) {
            return; // a view record made here is its `new`
        }
        if (owner.startsWith(APP) || (isStatic && owner.startsWith(VIEW))) {
            returned(method(load(owner), name, descriptor).getGenericReturnType());
        } else if (inPackage(owner)) {
            scan(owner, name, descriptor);
        }
    }

    /** The view classes in what an operation returns, and in the application layer's records there. */
    private void returned(Type t) {
        if (t instanceof Class<?> c) {
            if (c.isArray()) {
                returned(c.getComponentType());
            } else if (c.getName().startsWith(VIEW)) {
                add(c, documents);
            } else if (c.getName().startsWith(APP) && c.isRecord() && walked.add(c)) {
                for (RecordComponent rc : c.getRecordComponents()) {
                    returned(rc.getGenericType());
                }
            }
        } else if (t instanceof ParameterizedType p) {
            returned(p.getRawType());
            for (Type arg : p.getActualTypeArguments()) {
                returned(arg);
            }
        } else if (t instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                returned(bound);
            }
        } else if (t instanceof GenericArrayType a) {
            returned(a.getGenericComponentType());
        }
    }

    /** A view class whose serialiser is built ahead: a sealed interface stands for its records. */
    private static void add(Class<?> c, Set<Class<?>> into) {
        if (c.isInterface()) {
            if (c.isSealed()) {
                for (Class<?> permitted : c.getPermittedSubclasses()) {
                    add(permitted, into);
                }
            }
        } else {
            into.add(c);
        }
    }

    /**
     * The view classes of {@code c}'s components that Jackson leaves to {@code c}'s first write,
     * into {@code into}: those of its non-final components, and those of the final ones' in turn
     * (a final one is built with {@code c}).
     */
    private void components(Class<?> c, Set<Class<?>> into) {
        if (!c.isRecord() || !walked.add(c)) {
            return;
        }
        for (RecordComponent rc : c.getRecordComponents()) {
            if (rc.getGenericType() instanceof Class<?> type && Modifier.isFinal(type.getModifiers())) {
                if (type.getName().startsWith(VIEW)) {
                    components(type, into);
                }
            } else {
                named(rc.getGenericType(), into);
            }
        }
    }

    /** Every view class {@code t} names, its type arguments included. */
    private static void named(Type t, Set<Class<?>> into) {
        if (t instanceof Class<?> c) {
            if (c.isArray()) {
                named(c.getComponentType(), into);
            } else if (c.getName().startsWith(VIEW)) {
                add(c, into);
            }
        } else if (t instanceof ParameterizedType p) {
            named(p.getRawType(), into);
            for (Type arg : p.getActualTypeArguments()) {
                named(arg, into);
            }
        } else if (t instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                named(bound, into);
            }
        } else if (t instanceof GenericArrayType a) {
            named(a.getGenericComponentType(), into);
        }
    }

    private boolean inPackage(String className) {
        return className.startsWith(commandPackage + ".") && className.indexOf('.', commandPackage.length() + 1) < 0;
    }

    private String superclass(String className) {
        return classModel(className).superclass().map(s -> s.asInternalName().replace('/', '.')).orElse(null);
    }

    private ClassModel classModel(String className) {
        return parsed.computeIfAbsent(className, n -> {
            try (InputStream in = loader.getResourceAsStream(n.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new IllegalStateException("no class file for " + n);
                }
                return ClassFile.of().parse(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private Class<?> load(String className) {
        try {
            return Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a command calls into a missing class " + className, e);
        }
    }

    /** The method the bytecode names: declared by {@code type} or a supertype. */
    private static Method method(Class<?> type, String name, String descriptor) {
        Method m = find(type, name, descriptor);
        if (m == null) {
            throw new IllegalStateException("no method " + type.getName() + "." + name + descriptor);
        }
        return m;
    }

    private static Method find(Class<?> type, String name, String descriptor) {
        for (Method m : type.getDeclaredMethods()) {
            if (m.getName().equals(name) && MethodType.methodType(m.getReturnType(), m.getParameterTypes())
                    .toMethodDescriptorString().equals(descriptor)) {
                return m;
            }
        }
        List<Class<?>> supertypes = new ArrayList<>(List.of(type.getInterfaces()));
        if (type.getSuperclass() != null) {
            supertypes.addFirst(type.getSuperclass());
        }
        for (Class<?> s : supertypes) {
            Method m = find(s, name, descriptor);
            if (m != null) {
                return m;
            }
        }
        return null;
    }
}
