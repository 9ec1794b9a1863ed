package nvidb.cli.completion;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The zsh completion function ({@code _nvidb}, for a folder on {@code $fpath}): one function per
 * command built on {@code _arguments}, written from the same tree as bash's (picocli has no
 * generator for zsh's own system, and bashcompinit cannot be autoloaded from {@code $fpath}).
 */
public final class ZshCompletion {
    private ZshCompletion() {
    }

    public static String script(CommandLine root) {
        StringBuilder b = new StringBuilder();
        b.append("#compdef nvidb\n")
                .append("# zsh completion of nvidb, written by `nvidb completion zsh` from its command model.\n")
                .append("# Job ids, node names and lane names come from this machine's queue (never over SSH).\n\n")
                .append("_nvidb_candidates() {\n")
                .append("    local -a values\n")
                .append("    values=(${(f)\"$(${_nvidb_program:-nvidb} completion --candidates $1 2> /dev/null)\"})\n")
                .append("    compadd -a values\n")
                .append("}\n\n");
        for (CommandLine line : CommandTree.commands(root)) {
            function(b, line);
        }
        b.append("_nvidb() {\n")
                .append("    typeset -g _nvidb_program=${words[1]}\n")
                .append("    ").append(name(root)).append("\n")
                .append("}\n\n")
                .append("if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n")
                .append("    _nvidb \"$@\"\n")
                .append("else\n")
                .append("    compdef _nvidb nvidb\n")
                .append("fi\n");
        return b.toString();
    }

    private static void function(StringBuilder b, CommandLine line) {
        CommandSpec spec = line.getCommandSpec();
        List<CommandLine> subs = CommandTree.subcommands(line);
        List<String> specs = new ArrayList<>();
        for (OptionSpec o : CommandTree.options(spec)) {
            specs.add(option(o));
        }
        int next = 1;
        for (PositionalParamSpec p : CommandTree.positionals(spec)) {
            boolean many = p.arity().isVariable() || p.arity().max() > 1;
            String message = escape(p.paramLabel()).replace(":", "\\:");
            specs.add("'" + (many ? "*" : String.valueOf(p.index().min() + 1)) + ":" + message + ":" + action(p) + "'");
            next = Math.max(next, p.index().min() + 2);
        }
        b.append(name(line)).append("() {\n");
        if (subs.isEmpty()) {
            b.append("    _arguments -s \\\n");
            specs.forEach(s -> b.append("        ").append(s).append(" \\\n"));
            b.append("        && return 0\n}\n\n");
            return;
        }
        b.append("    local curcontext=$curcontext state state_descr line\n")
                .append("    typeset -A opt_args\n")
                .append("    _arguments -C -s \\\n");
        specs.forEach(s -> b.append("        ").append(s).append(" \\\n"));
        b.append("        '").append(next).append(": :->command' \\\n")
                .append("        '*:: :->args' && return 0\n")
                .append("    case $state in\n")
                .append("        command)\n")
                .append("            local -a commands=(\n");
        for (CommandLine sub : subs) {
            b.append("                ").append(quote(sub.getCommandName() + ":"
                    + CommandTree.summary(sub.getCommandSpec().usageMessage().description()))).append('\n');
        }
        b.append("            )\n")
                .append("            _describe -t commands command commands ;;\n")
                .append("        args)\n")
                .append("            local f=").append(name(line)).append("_${words[1]//[^a-zA-Z0-9]/_}\n")
                .append("            (( $+functions[$f] )) && $f ;;\n")
                .append("    esac\n")
                .append("}\n\n");
    }

    private static String option(OptionSpec o) {
        String description = "[" + escape(CommandTree.summary(o.description())) + "]";
        String value = "";
        if (CommandTree.takesValue(o)) {
            value = ":" + escape(o.paramLabel()).replace(":", "\\:") + ":" + action(o);
        }
        String[] names = o.names();
        if (names.length == 1) {
            return "'" + names[0] + description + value + "'";
        }
        return "'(" + String.join(" ", names) + ")'{" + String.join(",", names) + "}'" + description + value + "'";
    }

    private static String action(ArgSpec arg) {
        CommandTree.Kind kind = CommandTree.kind(arg);
        if (kind != null) {
            return "_nvidb_candidates " + kind.label();
        }
        List<String> values = CommandTree.fixedValues(arg);
        if (!values.isEmpty()) {
            return "(" + escape(String.join(" ", values)) + ")";
        }
        return CommandTree.isPath(arg) ? "_files" : "";
    }

    static String name(CommandLine line) {
        String path = CommandTree.path(line);
        return "_nvidb_cmd" + (path.isEmpty() ? "" : "_" + path.replaceAll("[^a-zA-Z0-9]", "_"));
    }

    /** Text inside a single-quoted _arguments spec: quotes closed and reopened, brackets escaped. */
    private static String escape(String s) {
        return s.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]");
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
