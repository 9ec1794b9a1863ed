package nvidb.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public face of a module as text, one line per type and per member a plugin can see, read
 * with JDK reflection from the compiled classes: every public or protected type of an exported
 * package (nested ones too), its kind, modifiers, type parameters and supertypes, and its public
 * and protected constructors, methods (generic signatures, {@code default}, {@code throws}),
 * fields (with the value of a constant), enum constants, record components and runtime
 * annotations. Each line starts with the type's name, so sorted lines group by type.
 */
final class Signatures {
    private Signatures() {
    }

    /** Every signature line of the module whose classes {@code anchor} was loaded from, sorted. */
    static List<String> of(Class<?> anchor) {
        ModuleReference module = moduleOf(anchor);
        Set<String> exported = module.descriptor().exports().stream()
                .filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
        TreeSet<String> lines = new TreeSet<>();
        for (String className : classNames(module)) {
            Class<?> type = load(anchor, className);
            if (exported.contains(type.getPackageName()) && visible(type)) {
                lines.addAll(describe(type));
            }
        }
        return List.copyOf(lines);
    }

    /** The packages the module exports to everyone. */
    static Set<String> exportedPackages(Class<?> anchor) {
        return moduleOf(anchor).descriptor().exports().stream().filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
    }

    private static ModuleReference moduleOf(Class<?> anchor) {
        Path location;
        try {
            location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        // Read module-info.class where the classes are: tests may run on the class path, where
        // the module itself is unnamed.
        Set<ModuleReference> found = ModuleFinder.of(location).findAll();
        if (found.size() != 1) {
            throw new IllegalStateException("expected one module at " + location + ", found " + found);
        }
        return found.iterator().next();
    }

    private static List<String> classNames(ModuleReference module) {
        try (ModuleReader reader = module.open(); Stream<String> names = reader.list()) {
            return names.filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Class<?> load(Class<?> anchor, String name) {
        try {
            return Class.forName(name, false, anchor.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Public or protected, and so is every type it is nested in; never anonymous or local. */
    private static boolean visible(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
            if (t.isAnonymousClass() || t.isLocalClass() || t.isSynthetic() || !visible(t.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<String> describe(Class<?> type) {
        String name = type.getTypeName();
        List<String> out = new ArrayList<>();
        out.add(name + " type: " + annotations(type) + header(type));
        if (type.isRecord()) {
            RecordComponent[] components = type.getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                out.add(name + " component " + i + ": " + components[i].getGenericType().getTypeName() + " "
                        + components[i].getName());
            }
        }
        for (Field f : type.getDeclaredFields()) {
            if (f.isEnumConstant()) {
                out.add(name + " enum constant: " + f.getName());
            } else if (visible(f.getModifiers()) && !f.isSynthetic()) {
                out.add(name + " field: " + annotations(f) + field(f));
            }
        }
        for (Constructor<?> c : type.getDeclaredConstructors()) {
            if (visible(c.getModifiers()) && !c.isSynthetic()) {
                out.add(name + " constructor: " + annotations(c) + executable(c, ""));
            }
        }
        for (Method m : type.getDeclaredMethods()) {
            if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                String returns = m.getGenericReturnType().getTypeName() + " ";
                out.add(name + " method: " + annotations(m) + executable(m, returns));
            }
        }
        return out;
    }

    private static String header(Class<?> type) {
        int mods = type.getModifiers() & ~Modifier.INTERFACE;
        String kind;
        if (type.isAnnotation()) {
            kind = "@interface";
        } else if (type.isInterface()) {
            kind = "interface";
            mods &= ~Modifier.ABSTRACT;
        } else if (type.isEnum()) {
            kind = "enum";
        } else if (type.isRecord()) {
            kind = "record";
        } else {
            kind = "class";
        }
        StringBuilder sb = new StringBuilder(Modifier.toString(mods));
        if (type.isSealed()) {
            sb.append(" sealed");
        }
        sb.append(' ').append(kind).append(' ').append(type.getSimpleName()).append(typeParameters(type.getTypeParameters()));
        Type superclass = type.getGenericSuperclass();
        if (superclass != null && superclass != Object.class) {
            sb.append(" extends ").append(superclass.getTypeName());
        }
        Type[] interfaces = type.getGenericInterfaces();
        if (interfaces.length > 0) {
            sb.append(type.isInterface() ? " extends " : " implements ").append(names(interfaces));
        }
        if (type.isSealed()) {
            sb.append(" permits ").append(Arrays.stream(type.getPermittedSubclasses())
                    .map(Class::getTypeName).collect(Collectors.joining(", ")));
        }
        return sb.toString().strip();
    }

    private static String field(Field f) {
        String s = Modifier.toString(f.getModifiers()) + " " + f.getGenericType().getTypeName() + " " + f.getName();
        int constant = Modifier.STATIC | Modifier.FINAL;
        if ((f.getModifiers() & constant) == constant && (f.getType().isPrimitive() || f.getType() == String.class)) {
            try {
                Object value = f.get(null);
                return s + " = " + (value instanceof String str ? '"' + str + '"' : value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return s;
    }

    private static String executable(Executable e, String returns) {
        int mods = e.getModifiers() & (e instanceof Method ? Modifier.methodModifiers() : Modifier.constructorModifiers());
        String name = e instanceof Constructor<?> c ? c.getDeclaringClass().getSimpleName() : ((Member) e).getName();
        Type[] params = e.getGenericParameterTypes();
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < params.length; i++) {
            String t = params[i].getTypeName();
            shown.add(e.isVarArgs() && i == params.length - 1 ? t.substring(0, t.length() - 2) + "..." : t);
        }
        String throwsClause = e.getGenericExceptionTypes().length == 0 ? ""
                : " throws " + names(e.getGenericExceptionTypes());
        String tp = typeParameters(e.getTypeParameters());
        String isDefault = e instanceof Method m && m.isDefault() ? " default" : "";
        return (Modifier.toString(mods) + isDefault + " " + (tp.isEmpty() ? "" : tp.strip() + " ") + returns + name
                + "(" + String.join(", ", shown) + ")" + throwsClause).strip();
    }

    private static String typeParameters(TypeVariable<?>[] variables) {
        if (variables.length == 0) {
            return "";
        }
        return Arrays.stream(variables).map(v -> {
            List<Type> bounds = Arrays.stream(v.getBounds()).filter(b -> b != Object.class).toList();
            return bounds.isEmpty() ? v.getName()
                    : v.getName() + " extends " + bounds.stream().map(Type::getTypeName).collect(Collectors.joining(" & "));
        }).collect(Collectors.joining(", ", "<", ">"));
    }

    private static String names(Type[] types) {
        return Arrays.stream(types).map(Type::getTypeName).collect(Collectors.joining(", "));
    }

    private static String annotations(AnnotatedElement element) {
        return Arrays.stream(element.getDeclaredAnnotations())
                .map(a -> "@" + a.annotationType().getName() + " ").collect(Collectors.joining());
    }
}
