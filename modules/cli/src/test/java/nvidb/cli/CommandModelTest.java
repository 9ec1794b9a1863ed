package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.cli.startup.CommandLines;
import nvidb.cli.startup.FieldAccess;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command lines built from the build-time model ({@link CommandLines#fromModel}) are the ones
 * picocli builds from the annotations: the same help for every command, every argument with the
 * same attributes, and every example of every help parsed to the same values.
 */
class CommandModelTest {
    private static CommandLine tree(CommandLines lines) {
        CliContext ctx = new CliContext(Map.of(), new Output(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
        CommandLine root = Nvidb.tree(ctx, new String[0], lines);
        HelpText.apply(root);
        return root;
    }

    private static Map<String, CommandLine> byPath(CommandLine root) {
        Map<String, CommandLine> all = new LinkedHashMap<>();
        walk(root, all);
        return all;
    }

    private static void walk(CommandLine cmd, Map<String, CommandLine> into) {
        into.put(cmd.getCommandSpec().qualifiedName(" "), cmd);
        cmd.getSubcommands().values().forEach(c -> walk(c, into));
    }

    @Test
    void everyCommandComesFromTheModel() {
        List<String> annotated = new ArrayList<>();
        for (CommandLine cmd : byPath(tree(CommandLines.fromModel())).values()) {
            Class<?> type = cmd.getCommandSpec().userObject().getClass();
            if (!CommandLines.fromModel().modelled(type)) {
                annotated.add(type.getName());
            }
        }
        assertEquals(List.of(), annotated, "built from annotations at run time (WriteCommandModel prints why "
                + "during the build; teach nvidb.cli.startup the feature they use)");
    }

    @Test
    void theBuildGeneratedTheFieldAccessThatSetsOptionsWithoutReflection() throws Exception {
        FieldAccess access = (FieldAccess) Class.forName(FieldAccess.implementation("nvidb.cli.commands"))
                .getDeclaredConstructor().newInstance();
        List<String> fields = List.of(access.fields());
        assertTrue(fields.size() > 100, "found only " + fields);
        // job submit's and job sweep's options live in their mixin, SubmitOptions.
        int gpus = fields.indexOf("nvidb.cli.commands.SubmitOptions#gpus");
        int name = fields.indexOf("nvidb.cli.commands.SubmitOptions#name");
        assertTrue(gpus >= 0 && name >= 0, fields.toString());
        var constructor = Class.forName("nvidb.cli.commands.SubmitOptions").getDeclaredConstructor();
        constructor.setAccessible(true);
        Object submit = constructor.newInstance();
        access.set(gpus, submit, 3);
        access.set(name, submit, "train");
        assertEquals(3, access.get(gpus, submit));
        assertEquals("train", access.get(name, submit));
    }

    @Test
    void theModelBuildsWhatTheAnnotationsDescribe() {
        Map<String, CommandLine> reflective = byPath(tree(CommandLines.reflective()));
        Map<String, CommandLine> modelled = byPath(tree(CommandLines.fromModel()));
        assertEquals(reflective.keySet(), modelled.keySet());
        assertTrue(reflective.size() >= 37, "found only " + reflective.size() + " commands");
        reflective.forEach((path, expected) -> {
            CommandLine actual = modelled.get(path);
            assertEquals(expected.getUsageMessage(CommandLine.Help.Ansi.OFF),
                    actual.getUsageMessage(CommandLine.Help.Ansi.OFF), path + ": help");
            assertEquals(describe(expected.getCommandSpec()), describe(actual.getCommandSpec()), path + ": model");
        });
    }

    @Test
    void everyExampleParsesToTheSameValues() {
        int parsed = 0;
        for (List<String> examples : HelpText.EXAMPLES.values()) {
            for (String example : examples) {
                String line = example.contains(" # ") ? example.substring(0, example.indexOf(" # ")) : example;
                List<String> words = SkillContractTest.words(line.strip());
                String[] args = words.subList(1, words.size()).toArray(String[]::new);
                assertEquals(values(CommandLines.reflective(), args), values(CommandLines.fromModel(), args), example);
                parsed++;
            }
        }
        assertTrue(parsed > 60, "parsed only " + parsed + " examples");
    }

    /** The value of every argument of every command the line runs through, after parsing it. */
    private static List<String> values(CommandLines lines, String[] args) {
        List<String> out = new ArrayList<>();
        CommandLine.ParseResult result = tree(lines).parseArgs(args);
        for (CommandLine.ParseResult r = result; r != null; r = r.subcommand()) {
            CommandSpec spec = r.commandSpec();
            out.add(spec.qualifiedName(" "));
            out.addAll(spec.args().stream().map(a -> label(a) + "=" + String.valueOf((Object) a.getValue())).sorted()
                    .toList());
        }
        return out;
    }

    private static String label(ArgSpec a) {
        return a instanceof OptionSpec o ? o.longestName() : "@" + ((PositionalParamSpec) a).index() + a.paramLabel();
    }

    /**
     * Everything of a command's spec that parsing, help and errors read. Not the initial values:
     * the model leaves them out (a command object serves one parse; see CommandLines.Binding).
     */
    private static Map<String, Object> describe(CommandSpec spec) {
        Map<String, Object> d = new TreeMap<>();
        d.put("name", spec.name());
        d.put("version", List.of(spec.version()));
        d.put("versionProvider", spec.versionProvider() == null ? null : spec.versionProvider().getClass());
        d.put("mixinStandardHelpOptions", spec.mixinStandardHelpOptions());
        d.put("mixins", List.copyOf(spec.mixins().keySet()));
        d.put("subcommands", List.copyOf(spec.subcommands().keySet()));
        d.put("userObject", spec.userObject().getClass());
        // Options by name: the order of annotated methods is the JVM's, not always the same.
        for (ArgSpec a : spec.args()) {
            d.put("arg " + label(a), describe(a));
        }
        return d;
    }

    private static List<Object> describe(ArgSpec a) {
        List<Object> d = new ArrayList<>(List.of(a.isOption(), label(a), List.of(a.description()), a.paramLabel(),
                a.hideParamSyntax(), a.arity().toString(), a.arity().isUnspecified(), a.type(),
                List.of(a.auxiliaryTypes()), a.typeInfo().isMultiValue(), a.typeInfo().isCollection(),
                a.typeInfo().isEnum(), a.typeInfo().isBoolean(), String.valueOf(a.splitRegex()),
                String.valueOf(a.defaultValue()), a.required(), a.hidden(), a.inherited(), a.interactive(),
                String.valueOf(a.scopeType()), String.valueOf(a.showDefaultValue()),
                a.toString(), String.valueOf(a.mapFallbackValue()),
                Arrays.stream(a.converters()).map(c -> c.getClass().getName()).toList(),
                String.valueOf(a.completionCandidates() == null ? null : List.of(a.completionCandidates()))));
        if (a instanceof OptionSpec o) {
            d.addAll(List.of(List.of(o.names()), o.usageHelp(), o.versionHelp(), o.help(), o.negatable(),
                    String.valueOf(o.fallbackValue()), o.order()));
        } else {
            d.add(((PositionalParamSpec) a).index().toString());
        }
        return d;
    }
}
