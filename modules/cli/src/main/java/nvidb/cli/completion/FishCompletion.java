package nvidb.cli.completion;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The fish completions ({@code nvidb.fish}): a {@code complete} line per subcommand, option and
 * queue-backed parameter, each guarded by the command path typed so far, written from the same
 * tree as bash's (picocli has no generator for fish).
 */
public final class FishCompletion {
    private FishCompletion() {
    }

    public static String script(CommandLine root) {
        StringBuilder b = new StringBuilder();
        b.append("# fish completion of nvidb, written by `nvidb completion fish` from its command model.\n")
                .append("# Job ids, node names and lane names come from this machine's queue (never over SSH).\n\n")
                .append("function __nvidb_subcommands --description 'the subcommands of an nvidb command path'\n")
                .append("    switch \"$argv\"\n");
        for (CommandLine line : CommandTree.commands(root)) {
            List<CommandLine> subs = CommandTree.subcommands(line);
            if (!subs.isEmpty()) {
                b.append("        case ").append(quote(CommandTree.path(line))).append("\n            echo ")
                        .append(String.join(" ", subs.stream().map(CommandLine::getCommandName).toList())).append('\n');
            }
        }
        b.append("    end\nend\n\n")
                .append("function __nvidb_path --description 'the nvidb command path typed so far'\n")
                .append("    set -l path\n")
                .append("    for w in (commandline -opc)[2..-1]\n")
                .append("        test \"$w\" = -- && break\n")
                .append("        if contains -- $w (string split ' ' -- (__nvidb_subcommands $path))\n")
                .append("            set path $path $w\n")
                .append("        end\n")
                .append("    end\n")
                .append("    echo \"$path\"\n")
                .append("end\n\n")
                .append("function __nvidb_at --description 'whether the command path typed so far is $argv'\n")
                .append("    set -l path (__nvidb_path)\n")
                .append("    test \"$path\" = \"$argv\"\n")
                .append("end\n\n")
                .append("function __nvidb_candidates --description 'job ids, node or lane names of the local queue'\n")
                .append("    set -l program (commandline -opc)[1]\n")
                .append("    command $program completion --candidates $argv[1] 2> /dev/null\n")
                .append("end\n\n")
                .append("complete -c nvidb -e\n");
        for (CommandLine line : CommandTree.commands(root)) {
            command(b, line);
        }
        return b.toString();
    }

    private static void command(StringBuilder b, CommandLine line) {
        CommandSpec spec = line.getCommandSpec();
        String at = "complete -c nvidb -n " + quote("__nvidb_at " + quote(CommandTree.path(line)));
        for (CommandLine sub : CommandTree.subcommands(line)) {
            b.append(at).append(" -f -a ").append(quote(sub.getCommandName())).append(" -d ")
                    .append(quote(CommandTree.summary(sub.getCommandSpec().usageMessage().description()))).append('\n');
        }
        for (OptionSpec o : CommandTree.options(spec)) {
            b.append(at);
            for (String name : o.names()) {
                if (name.startsWith("--")) {
                    b.append(" -l ").append(quote(name.substring(2)));
                } else if (name.length() == 2) {
                    b.append(" -s ").append(quote(name.substring(1)));
                } else {
                    b.append(" -o ").append(quote(name.substring(1)));
                }
            }
            b.append(" -d ").append(quote(CommandTree.summary(o.description())));
            if (CommandTree.takesValue(o)) {
                b.append(values(o));
            }
            b.append('\n');
        }
        for (PositionalParamSpec p : CommandTree.positionals(spec)) {
            // A parameter offers the queue's values or its fixed ones; any other keeps fish's file names.
            CommandTree.Kind kind = CommandTree.kind(p);
            List<String> fixed = CommandTree.fixedValues(p);
            if (kind != null) {
                b.append(at).append(" -f -a ").append(quote("(__nvidb_candidates " + kind.label() + ")")).append('\n');
            } else if (!fixed.isEmpty()) {
                b.append(at).append(" -f -a ").append(quote(String.join(" ", fixed))).append('\n');
            }
        }
    }

    /** How fish completes the value of {@code arg}: from the queue, fixed values, files, or nothing offered. */
    private static String values(ArgSpec arg) {
        CommandTree.Kind kind = CommandTree.kind(arg);
        if (kind != null) {
            return " -x -a " + quote("(__nvidb_candidates " + kind.label() + ")");
        }
        List<String> fixed = CommandTree.fixedValues(arg);
        if (!fixed.isEmpty()) {
            return " -x -a " + quote(String.join(" ", fixed));
        }
        return CommandTree.isPath(arg) ? " -r -F" : " -r";
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
