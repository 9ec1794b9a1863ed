package nvidb.cli.startup.build;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.cli.startup.CommandModel;
import nvidb.cli.startup.UsageSettings;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Build time: reads the command tree that picocli built from the annotations and writes its
 * {@link CommandModel}s. A class that uses something the replay does not know (an argument
 * group, a custom parameter consumer, …) is left out; the run time builds that one from its
 * annotations as before.
 */
public final class ModelWriter {
    private final Map<String, CommandModel> models = new LinkedHashMap<>();
    private final List<String> skipped = new ArrayList<>();

    private ModelWriter() {
    }

    /**
     * Writes the models of every command and mixin under {@code root} into {@code folder}, one
     * file a class (a command reads only its own), replacing what the folder held; returns the
     * classes left out, each with the reason.
     */
    public static List<String> write(CommandLine root, Path folder) throws IOException {
        ModelWriter writer = new ModelWriter();
        writer.command(root);
        Files.createDirectories(folder);
        try (var old = Files.newDirectoryStream(folder, "*.model")) {
            for (Path stale : old) {
                Files.delete(stale);
            }
        }
        for (CommandModel model : writer.models.values()) {
            try (OutputStream raw = Files.newOutputStream(folder.resolve(CommandModel.resource(model.className())));
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw))) {
                model.write(out);
            }
        }
        return List.copyOf(writer.skipped);
    }

    private void command(CommandLine line) {
        CommandSpec spec = line.getCommandSpec();
        model(spec, true);
        line.getSubcommands().values().forEach(this::command);
    }

    /** The model of the spec's user object's class, once per class; false when it is left out. */
    private boolean model(CommandSpec spec, boolean command) {
        Class<?> type = spec.userObject().getClass();
        if (models.containsKey(type.getName())) {
            return true;
        }
        if (skipped.contains(type.getName())) {
            return false;
        }
        try {
            models.put(type.getName(), describe(spec, command));
            return true;
        } catch (Unsupported e) {
            skipped.add(type.getName() + ": " + e.getMessage());
            return false;
        }
    }

    private CommandModel describe(CommandSpec spec, boolean command) {
        Class<?> type = spec.userObject().getClass();
        if (!spec.argGroups().isEmpty() || !spec.unmatchedArgsBindings().isEmpty() || spec.defaultValueProvider() != null
                || spec.resourceBundleBaseName() != null || spec.helpCommand() || spec.subcommandsRepeatable()) {
            throw new Unsupported("uses a feature the replay does not know");
        }
        // Which arguments each mixin brought: those the class itself declares are the rest.
        Map<ArgSpec, String> fromMixin = new IdentityHashMap<>();
        spec.mixins().forEach((name, mixin) -> mixin.args().forEach(a -> fromMixin.put(a, name)));
        List<CommandModel.Element> elements = new ArrayList<>();
        Set<String> mixinsDone = new java.util.HashSet<>();
        for (ArgSpec a : spec.args()) {
            if (a.inherited()) {
                continue; // the parent's INHERIT options: addSubcommand copies them in again
            }
            String mixin = fromMixin.get(a);
            if (mixin == null) {
                elements.add(arg(a, type));
            } else if (mixinsDone.add(mixin)) {
                elements.add(mixinRef(spec, mixin, type));
            }
        }
        for (String mixin : spec.mixins().keySet()) {
            if (mixinsDone.add(mixin)) {
                elements.add(mixinRef(spec, mixin, type)); // a mixin without arguments
            }
        }
        Map<String, String> subcommands = new LinkedHashMap<>();
        CommandLine.Command annotation = command ? commandAnnotation(type) : null;
        if (annotation != null) {
            for (Class<?> sub : annotation.subcommands()) {
                CommandLine.Command subCommand = sub.getAnnotation(CommandLine.Command.class);
                if (subCommand == null) {
                    throw new Unsupported("subcommand " + sub.getName() + " has no @Command");
                }
                subcommands.put(subCommand.name(), sub.getName());
            }
        }
        return new CommandModel(type.getName(), command ? spec.name() : null, List.of(spec.version()),
                spec.versionProvider() == null ? null : providerClass(spec.versionProvider()),
                UsageSettings.changed(spec.usageMessage()), elements,
                annotated(type, CommandLine.Spec.class), annotated(type, CommandLine.ParentCommand.class), subcommands,
                command ? JsonDocuments.of(type) : List.of());
    }

    private static String providerClass(CommandLine.IVersionProvider provider) {
        Class<?> type = provider.getClass();
        if (type.isSynthetic() || type.isAnonymousClass()) {
            throw new Unsupported("its version provider is not a named class");
        }
        return type.getName();
    }

    private static CommandLine.Command commandAnnotation(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            CommandLine.Command annotation = c.getAnnotation(CommandLine.Command.class);
            if (annotation != null) {
                return annotation;
            }
        }
        return null;
    }

    private CommandModel.MixinRef mixinRef(CommandSpec spec, String name, Class<?> type) {
        CommandSpec mixin = spec.mixins().get(name);
        Class<?> mixinType = mixin.userObject().getClass();
        if (name.equals("mixinStandardHelpOptions") && mixinType.getName().equals("picocli.CommandLine$AutoHelpMixin")) {
            models.putIfAbsent(mixinType.getName(), describeHelp(mixin));
            return new CommandModel.MixinRef(name, null, mixinType.getName());
        }
        CommandModel.Member field = fieldNamed(type, spec.mixinAnnotatedElements().get(name).getName());
        if (!model(mixin, false)) {
            throw new Unsupported("its mixin " + mixinType.getName() + " is left out");
        }
        return new CommandModel.MixinRef(name, field, mixinType.getName());
    }

    /** picocli's own --help and --version: their values stay with picocli (no member of ours). */
    private static CommandModel describeHelp(CommandSpec mixin) {
        List<CommandModel.Element> args = new ArrayList<>();
        for (ArgSpec a : mixin.args()) {
            args.add(arg(a, null));
        }
        return new CommandModel(mixin.userObject().getClass().getName(), null, List.of(), null, Map.of(), args,
                List.of(), List.of(), Map.of(), List.of());
    }

    private static CommandModel.Arg arg(ArgSpec a, Class<?> owner) {
        if (a.parameterConsumer() != null || a.preprocessor() == null
                || !a.preprocessor().getClass().getName().startsWith("picocli.")) {
            throw new Unsupported("an argument with a custom parameter consumer or preprocessor");
        }
        if (a.completionCandidates() != null && !a.type().isEnum()) {
            throw new Unsupported("an argument with completion candidates");
        }
        if (a.isPositional() && a.interactive()) {
            throw new Unsupported("a positional parameter with settings the replay leaves out");
        }
        CommandModel.Member binding = owner == null ? null : binding(a, owner);
        OptionSpec o = a.isOption() ? (OptionSpec) a : null;
        PositionalParamSpec p = a.isPositional() ? (PositionalParamSpec) a : null;
        return new CommandModel.Arg(a.isOption(), o == null ? List.of() : List.of(o.names()),
                p == null || p.index().isUnspecified() ? null : p.index().originalValue(), List.of(a.description()), a.descriptionKey(),
                a.paramLabel(), a.hideParamSyntax(), a.arity().toString(), a.arity().isUnspecified(),
                a.type().getName(), Arrays.stream(a.auxiliaryTypes()).map(Class::getName).toList(),
                Arrays.stream(a.converters()).map(c -> converterClass(c)).toList(),
                a.splitRegex(), a.splitRegexSynopsisLabel(), a.defaultValue(), o == null ? null : o.fallbackValue(),
                a.mapFallbackValue(), a.required(), a.hidden(), o != null && o.usageHelp(), o != null && o.versionHelp(),
                o != null && o.help(), o != null && o.negatable(), a.interactive(), a.echo(), a.prompt(),
                o == null ? -1 : o.order(), a.scopeType() == null ? null : a.scopeType().name(),
                a.showDefaultValue() == null ? null : a.showDefaultValue().name(), binding,
                a.toString());
    }

    private static String converterClass(CommandLine.ITypeConverter<?> converter) {
        Class<?> type = converter.getClass();
        if (type.isSynthetic() || type.isAnonymousClass()) {
            throw new Unsupported("a converter that is not a named class");
        }
        return type.getName();
    }

    private static CommandModel.Member binding(ArgSpec a, Class<?> owner) {
        Object element = a.userObject();
        if (element instanceof Field f) {
            return member(f, false);
        }
        if (element instanceof Method m && m.getParameterCount() == 1) {
            return member(m, true);
        }
        throw new Unsupported("argument " + a + " is bound to " + element + " of " + owner.getName());
    }

    private static CommandModel.Member member(Member m, boolean method) {
        return new CommandModel.Member(m.getDeclaringClass().getName(), m.getName(), method);
    }

    private static CommandModel.Member fieldNamed(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    return member(f, false);
                }
            }
        }
        throw new Unsupported("no field " + name);
    }

    /** The fields of the class and its superclasses carrying {@code annotation} (a @Spec of the mixee is unknown). */
    private static List<CommandModel.Member> annotated(Class<?> type, Class<? extends java.lang.annotation.Annotation> annotation) {
        List<CommandModel.Member> found = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(annotation)) {
                    if (f.getAnnotation(CommandLine.Spec.class) != null
                            && f.getAnnotation(CommandLine.Spec.class).value() != CommandLine.Spec.Target.SELF) {
                        throw new Unsupported("@Spec(MIXEE) on " + f);
                    }
                    found.add(member(f, false));
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                if (((AccessibleObject) m).isAnnotationPresent(annotation)) {
                    throw new Unsupported("@" + annotation.getSimpleName() + " on method " + m);
                }
            }
        }
        return found;
    }

    /** A feature of a command class the replay does not know: that class is built from its annotations. */
    private static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }
}
