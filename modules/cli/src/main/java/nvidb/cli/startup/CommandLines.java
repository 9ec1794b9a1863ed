package nvidb.cli.startup;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Makes the {@link CommandLine} of a command object: from the model written at build time when
 * it describes the object's class ({@link CommandModel}: no annotation is read), else from the
 * annotations, as picocli does by itself.
 */
public final class CommandLines {
    private static final CommandLines REFLECTIVE = new CommandLines(false);
    private static final CommandLines FROM_MODEL = new CommandLines(true);

    private final boolean useModel;
    private final Map<String, Optional<CommandModel>> models = new ConcurrentHashMap<>();

    private CommandLines(boolean useModel) {
        this.useModel = useModel;
    }

    /** Picocli's own way, from the annotations (the model's writer starts from this). */
    public static CommandLines reflective() {
        return REFLECTIVE;
    }

    /** From the models in the module, where the build wrote one for the class; else from the annotations. */
    public static CommandLines fromModel() {
        return FROM_MODEL;
    }

    private CommandModel model(String className) {
        if (!useModel) {
            return null;
        }
        return models.computeIfAbsent(className, CommandLines::load).orElse(null);
    }

    private static Optional<CommandModel> load(String className) {
        try (InputStream raw = CommandLines.class.getResourceAsStream(CommandModel.resource(className))) {
            if (raw == null) {
                return Optional.empty(); // left out by the build, or compiled without it (an IDE): annotations
            }
            return Optional.of(CommandModel.read(new DataInputStream(new BufferedInputStream(raw))));
        } catch (IOException e) {
            throw new UncheckedIOException("the command model of " + className + " is unreadable", e);
        }
    }

    /** Whether {@code type}'s command line comes from the model (tests). */
    public boolean modelled(Class<?> type) {
        return model(type.getName()) != null;
    }

    /**
     * The view records the {@code --json} answer of a {@code command} of this class is made of, by
     * class name, as the build derived them (none without a model).
     */
    public java.util.List<String> documents(Class<?> command) {
        CommandModel model = model(command.getName());
        return model == null ? java.util.List.of() : model.documents();
    }

    /** The command line of {@code command}, with the subcommands its class names. */
    public CommandLine of(Object command) {
        CommandModel model = model(command.getClass().getName());
        if (model == null) {
            return new CommandLine(command);
        }
        CommandSpec spec = spec(command, model);
        CommandLine line = new CommandLine(spec);
        model.subcommands().forEach((name, type) -> {
            Object sub = instantiate(type);
            CommandModel subModel = model(type);
            if (subModel != null) {
                subModel.parentFields().forEach(f -> FieldRef.of(f).set(sub, command));
            }
            line.addSubcommand(name, of(sub));
        });
        return line;
    }

    private CommandSpec spec(Object owner, CommandModel model) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(owner);
        if (model.name() != null) {
            spec.name(model.name());
        }
        if (!model.version().isEmpty()) {
            spec.version(model.version().toArray(String[]::new));
        }
        if (model.versionProvider() != null) {
            spec.versionProvider((CommandLine.IVersionProvider) instantiate(model.versionProvider()));
        }
        model.usage().forEach((name, value) -> UsageSettings.apply(spec.usageMessage(), name, value));
        for (CommandModel.Element e : model.elements()) {
            if (e instanceof CommandModel.Arg a) {
                ArgSpec arg = arg(a, owner);
                if (arg instanceof OptionSpec o) {
                    spec.addOption(o);
                } else {
                    spec.addPositional((PositionalParamSpec) arg);
                }
            } else if (e instanceof CommandModel.MixinRef r) {
                spec.addMixin(r.name(), mixin(owner, r));
            }
        }
        model.specFields().forEach(f -> FieldRef.of(f).set(owner, spec));
        return spec;
    }

    private CommandSpec mixin(Object owner, CommandModel.MixinRef ref) {
        CommandModel model = model(ref.mixinClass());
        if (ref.field() == null) {
            return spec(new Object(), model); // picocli's --help and --version hold their own values
        }
        FieldRef field = FieldRef.of(ref.field());
        Object mixin = field.get(owner);
        if (mixin == null) {
            mixin = instantiate(ref.mixinClass());
            field.set(owner, mixin);
        }
        return spec(mixin, model);
    }

    private static ArgSpec arg(CommandModel.Arg a, Object owner) {
        Binding binding = binding(a, owner);
        if (a.option()) {
            OptionSpec.Builder o = OptionSpec.builder(a.names().toArray(String[]::new)).usageHelp(a.usageHelp())
                    .versionHelp(a.versionHelp()).help(a.help()).negatable(a.negatable()).order(a.order())
                    .description(a.description().toArray(String[]::new)).descriptionKey(a.descriptionKey())
                    .paramLabel(a.paramLabel()).hideParamSyntax(a.hideParamSyntax()).type(type(a.type()))
                    .auxiliaryTypes(types(a)).converters(converters(a)).splitRegex(a.splitRegex())
                    .splitRegexSynopsisLabel(a.splitRegexSynopsisLabel()).defaultValue(a.defaultValue())
                    .required(a.required()).hidden(a.hidden()).interactive(a.interactive()).echo(a.echo())
                    .prompt(a.prompt()).scopeType(scope(a)).withToString(a.described()).arity(arity(a));
            if (a.fallbackValue() != null) {
                o.fallbackValue(a.fallbackValue());
            }
            if (a.mapFallbackValue() != null) {
                o.mapFallbackValue(a.mapFallbackValue());
            }
            if (a.showDefaultValue() != null) {
                o.showDefaultValue(CommandLine.Help.Visibility.valueOf(a.showDefaultValue()));
            }
            return o.getter(binding).setter(binding).hasInitialValue(false).build();
        }
        // What positional parameters use; ModelWriter leaves out a class whose positionals use more.
        PositionalParamSpec.Builder p = PositionalParamSpec.builder()
                .description(a.description().toArray(String[]::new)).descriptionKey(a.descriptionKey())
                .paramLabel(a.paramLabel()).hideParamSyntax(a.hideParamSyntax()).type(type(a.type()))
                .auxiliaryTypes(types(a)).converters(converters(a)).splitRegex(a.splitRegex())
                .splitRegexSynopsisLabel(a.splitRegexSynopsisLabel()).defaultValue(a.defaultValue())
                .required(a.required()).hidden(a.hidden()).scopeType(scope(a)).withToString(a.described()).arity(arity(a));
        if (a.index() != null) {
            p.index(a.index());
        }
        if (a.mapFallbackValue() != null) {
            p.mapFallbackValue(a.mapFallbackValue());
        }
        if (a.showDefaultValue() != null) {
            p.showDefaultValue(CommandLine.Help.Visibility.valueOf(a.showDefaultValue()));
        }
        return p.getter(binding).setter(binding).hasInitialValue(false).build();
    }

    private static Binding binding(CommandModel.Arg a, Object owner) {
        if (a.binding() == null) {
            // picocli's --help and --version: a boolean field of its own mixin, false until given.
            return new Binding(a.type().equals("boolean") ? Boolean.FALSE : null);
        }
        return a.binding().method() ? new Binding(owner, method(a.binding(), type(a.type())))
                : new Binding(owner, FieldRef.of(a.binding()));
    }

    private static CommandLine.Range arity(CommandModel.Arg a) {
        return CommandLine.Range.valueOf(a.arity()).unspecified(a.arityUnspecified());
    }

    private static Class<?>[] types(CommandModel.Arg a) {
        Class<?>[] types = new Class<?>[a.auxiliaryTypes().size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = type(a.auxiliaryTypes().get(i));
        }
        return types;
    }

    private static CommandLine.ITypeConverter<?>[] converters(CommandModel.Arg a) {
        CommandLine.ITypeConverter<?>[] converters = new CommandLine.ITypeConverter<?>[a.converters().size()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = (CommandLine.ITypeConverter<?>) instantiate(a.converters().get(i));
        }
        return converters;
    }

    private static CommandLine.ScopeType scope(CommandModel.Arg a) {
        return a.scopeType() == null ? null : CommandLine.ScopeType.valueOf(a.scopeType());
    }

    /**
     * A field of the command object, or a setter method, as picocli binds an annotated member.
     * Without an initial value: picocli reads one only to put it back before a parse, and a
     * command object here is made for one parse; reading (and putting back) every field through
     * reflection costs a command several milliseconds.
     */
    private static final class Binding implements CommandLine.Model.IGetter, CommandLine.Model.ISetter {
        private final Object owner;
        private final FieldRef field;
        private final Method method;
        private Object value;

        Binding(Object owner, FieldRef field) {
            this.owner = owner;
            this.field = field;
            this.method = null;
        }

        Binding(Object owner, Method method) {
            this.owner = owner;
            this.field = null;
            this.method = method;
        }

        /** A value held here alone, starting at {@code initial}. */
        Binding(Object initial) {
            this.owner = null;
            this.field = null;
            this.method = null;
            this.value = initial;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) (field == null ? value : field.get(owner));
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T set(T newValue) throws Exception {
            if (field == null) {
                if (method != null) {
                    try {
                        method.invoke(owner, newValue);
                    } catch (InvocationTargetException e) {
                        throw e.getCause() instanceof Exception cause ? cause : e;
                    }
                }
                T old = (T) value;
                value = newValue;
                return old;
            }
            T old = (T) field.get(owner);
            field.set(owner, newValue);
            return old;
        }
    }

    private static Class<?> type(String name) {
        return switch (name) {
            case "boolean" -> boolean.class;
            case "int" -> int.class;
            case "long" -> long.class;
            case "double" -> double.class;
            case "float" -> float.class;
            case "short" -> short.class;
            case "byte" -> byte.class;
            case "char" -> char.class;
            default -> {
                try {
                    yield Class.forName(name, false, CommandLines.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("the command model names a missing class " + name, e);
                }
            }
        };
    }

    private static Object instantiate(String className) {
        try {
            var constructor = type(className).getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + className + " for the command line", e);
        }
    }

    private static Method method(CommandModel.Member m, Class<?> parameter) {
        try {
            Method method = type(m.declaringClass()).getDeclaredMethod(m.name(), parameter);
            method.setAccessible(true);
            return method;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the command model names a missing method " + m, e);
        }
    }

    /**
     * A field a model binds, reached through its package's generated {@link FieldAccess} (no
     * reflection: see there why), or through reflection where the build generated none (the
     * classes compiled without the build's model step, as in an IDE).
     */
    private record FieldRef(FieldAccess access, int index, Field reflective) {
        private static final Map<String, Optional<FieldAccess>> ACCESS = new ConcurrentHashMap<>();
        private static final Map<String, Integer> INDEX = new ConcurrentHashMap<>();

        static FieldRef of(CommandModel.Member m) {
            String pkg = m.declaringClass().substring(0, m.declaringClass().lastIndexOf('.'));
            Optional<FieldAccess> access = ACCESS.computeIfAbsent(pkg, FieldRef::load);
            Integer index = INDEX.get(m.declaringClass() + "#" + m.name());
            if (access.isPresent() && index != null) {
                return new FieldRef(access.get(), index, null);
            }
            try {
                Field f = type(m.declaringClass()).getDeclaredField(m.name());
                f.setAccessible(true);
                return new FieldRef(null, -1, f);
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException("the command model names a missing field " + m, e);
            }
        }

        private static Optional<FieldAccess> load(String pkg) {
            Class<?> type;
            try {
                type = Class.forName(FieldAccess.implementation(pkg), true, CommandLines.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                return Optional.empty();
            }
            FieldAccess access = (FieldAccess) instantiate(type.getName());
            String[] fields = access.fields();
            for (int i = 0; i < fields.length; i++) {
                INDEX.put(fields[i], i);
            }
            return Optional.of(access);
        }

        Object get(Object owner) {
            if (access != null) {
                return access.get(index, owner);
            }
            try {
                return reflective.get(owner);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        void set(Object owner, Object value) {
            if (access != null) {
                access.set(index, owner, value);
                return;
            }
            try {
                reflective.set(owner, value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
