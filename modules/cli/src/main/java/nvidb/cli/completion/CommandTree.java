package nvidb.cli.completion;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command tree as the completion scripts and manual pages see it: every command that is not
 * hidden, with its options and parameters, straight from the {@link CommandLine} the CLI parses
 * with. A command added anywhere in the tree is covered without touching this package.
 */
public final class CommandTree {
    /** What a value is, where the local queue can list the candidates. */
    public enum Kind {
        JOBS, NODES, LANES;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Parameters named by these labels take job ids, node names or lane names: the one rule for
     * which values complete from the queue. Options are named by their longest name.
     */
    private static final Map<String, Kind> BY_LABEL = Map.of("ID", Kind.JOBS, "IDS", Kind.JOBS, "A", Kind.JOBS,
            "B", Kind.JOBS, "NODE", Kind.NODES, "LANE", Kind.LANES, "NODE:GPU", Kind.LANES);
    private static final Map<String, Kind> BY_OPTION = Map.of("--node", Kind.NODES, "--lane", Kind.LANES,
            "--after", Kind.JOBS, "--after-any", Kind.JOBS, "--before", Kind.JOBS, "--job", Kind.JOBS);
    /** Commands whose ids are not job ids (alerts). */
    private static final Set<String> NOT_JOBS = Set.of("nvidb queue ack");

    private CommandTree() {
    }

    /** Every visible command below {@code root} and {@code root} itself, parents before children. */
    public static List<CommandLine> commands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>();
        collect(root, all);
        return all;
    }

    private static void collect(CommandLine line, List<CommandLine> into) {
        into.add(line);
        subcommands(line).forEach(sub -> collect(sub, into));
    }

    /** The visible subcommands of a command, in the order they were added. */
    public static List<CommandLine> subcommands(CommandLine line) {
        List<CommandLine> subs = new ArrayList<>();
        line.getSubcommands().forEach((name, sub) -> {
            // picocli lists an alias as a key of its own: each command once, under its own name.
            if (name.equals(sub.getCommandName()) && !sub.getCommandSpec().usageMessage().hidden()) {
                subs.add(sub);
            }
        });
        return subs;
    }

    /** The command's path without the program name: "" for the root, "job submit". */
    public static String path(CommandLine line) {
        String qualified = line.getCommandSpec().qualifiedName(" ");
        int space = qualified.indexOf(' ');
        return space < 0 ? "" : qualified.substring(space + 1);
    }

    public static List<OptionSpec> options(CommandSpec spec) {
        return spec.options().stream().filter(o -> !o.hidden()).toList();
    }

    public static List<PositionalParamSpec> positionals(CommandSpec spec) {
        return spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
    }

    /** Where the queue lists the values of {@code arg}, or null. */
    public static Kind kind(ArgSpec arg) {
        Kind kind = arg instanceof OptionSpec o ? BY_OPTION.get(o.longestName()) : BY_LABEL.get(arg.paramLabel());
        if (kind == Kind.JOBS && NOT_JOBS.contains(arg.command().qualifiedName(" "))) {
            return null;
        }
        return kind;
    }

    /** Whether an option takes a value (picocli's arity: a boolean flag takes none). */
    public static boolean takesValue(OptionSpec o) {
        return o.arity().max() > 0;
    }

    /** The fixed values of an argument (an enum, completionCandidates), or none. */
    public static List<String> fixedValues(ArgSpec arg) {
        List<String> values = new ArrayList<>();
        if (arg.completionCandidates() != null) {
            arg.completionCandidates().forEach(values::add);
        }
        return values;
    }

    /** An argument whose value is a file name. */
    public static boolean isPath(ArgSpec arg) {
        return arg.paramLabel().equals("PATH") || arg.paramLabel().equals("FILE") || arg.paramLabel().equals("DIR")
                || arg.type() == java.nio.file.Path.class || arg.type() == java.io.File.class;
    }

    /** The first line of a description, with picocli's format markers (%n, ${DEFAULT-VALUE}) read. */
    public static String summary(String[] description) {
        if (description == null || description.length == 0) {
            return "";
        }
        String first = plain(description[0]);
        int dot = first.indexOf(". ");
        return dot > 0 ? first.substring(0, dot + 1) : first;
    }

    /** Picocli's markup of a description line made plain text. */
    public static String plain(String text) {
        return text.replace("%n", " ").replace("%%", "%").strip();
    }
}
