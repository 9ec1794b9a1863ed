package nvidb.cli.completion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * One manual page per command ({@code nvidb.1}, {@code nvidb-job-submit.1}, …), in roff, from the
 * same tree the CLI parses with: synopsis, description, options and parameters as {@code --help}
 * prints them, its examples (and the exit codes of the root), and the pages of parent and
 * subcommands. Written at build time into the image's {@code share/man/man1}.
 */
public final class ManPages {
    private ManPages() {
    }

    /** Writes every page into {@code dir} (created); returns the files, the root's first. */
    public static List<Path> write(CommandLine root, String version, Path dir) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (CommandLine line : CommandTree.commands(root)) {
                Path file = dir.resolve(pageName(line) + ".1");
                Files.writeString(file, page(line, version), StandardCharsets.UTF_8);
                written.add(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the manual pages into " + dir, e);
        }
        return written;
    }

    /** {@code nvidb}, {@code nvidb-job-submit}. */
    public static String pageName(CommandLine line) {
        return line.getCommandSpec().qualifiedName("-");
    }

    static String page(CommandLine line, String version) {
        CommandSpec spec = line.getCommandSpec();
        String name = pageName(line);
        StringBuilder b = new StringBuilder();
        b.append(".\\\" Written by nvidb from its command model; edit the command, not this page.\n")
                .append(".TH ").append(quoted(name.toUpperCase(java.util.Locale.ROOT))).append(" 1 \"\" ")
                .append(quoted(version)).append(" \"nvidb manual\"\n")
                .append(".SH NAME\n").append(text(name)).append(" \\- ")
                .append(text(CommandTree.summary(spec.usageMessage().description()))).append('\n');
        b.append(".SH SYNOPSIS\n.nf\n");
        for (String s : synopsis(line)) {
            b.append(text(s)).append('\n');
        }
        b.append(".fi\n");
        b.append(".SH DESCRIPTION\n");
        for (String d : spec.usageMessage().description()) {
            b.append(text(CommandTree.plain(d))).append('\n');
        }
        List<OptionSpec> options = CommandTree.options(spec);
        if (!options.isEmpty()) {
            b.append(".SH OPTIONS\n");
            for (OptionSpec o : options) {
                String label = CommandTree.takesValue(o) ? " " + o.paramLabel() : "";
                b.append(".TP\n.B ").append(text(String.join(", ", o.names()) + label)).append('\n');
                describe(b, o);
            }
        }
        List<PositionalParamSpec> positionals = CommandTree.positionals(spec);
        if (!positionals.isEmpty()) {
            b.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : positionals) {
                b.append(".TP\n.B ").append(text(p.paramLabel())).append('\n');
                describe(b, p);
            }
        }
        List<CommandLine> subs = CommandTree.subcommands(line);
        if (!subs.isEmpty()) {
            b.append(".SH COMMANDS\n");
            for (CommandLine sub : subs) {
                b.append(".TP\n.B ").append(text(sub.getCommandName())).append('\n')
                        .append(text(CommandTree.summary(sub.getCommandSpec().usageMessage().description())))
                        .append(" See \\fB").append(text(pageName(sub))).append("\\fR(1).\n");
            }
        }
        footer(b, spec);
        List<String> related = new ArrayList<>();
        if (line.getParent() != null) {
            related.add(pageName(line.getParent()));
        }
        subs.forEach(s -> related.add(pageName(s)));
        if (!related.isEmpty()) {
            b.append(".SH SEE ALSO\n").append(String.join(", ", related.stream()
                    .map(r -> "\\fB" + text(r) + "\\fR(1)").toList())).append('\n');
        }
        return b.toString();
    }

    private static void describe(StringBuilder b, ArgSpec arg) {
        List<String> lines = new ArrayList<>();
        for (String d : arg.description()) {
            lines.add(CommandTree.plain(d));
        }
        b.append(text(String.join(" ", lines))).append('\n');
    }

    /** The usage lines, as --help prints them (a custom synopsis where the CLI sets one). */
    private static List<String> synopsis(CommandLine line) {
        CommandSpec spec = line.getCommandSpec();
        String[] custom = spec.usageMessage().customSynopsis();
        if (custom != null && custom.length > 0) {
            return List.of(custom).stream().map(s -> s.replace("%%", "%")).toList();
        }
        Help help = new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
        return List.of(help.synopsis(0).stripTrailing().split("\n"));
    }

    /**
     * The footer (examples; the root's exit codes too) as preformatted text; a line that starts a
     * block of its own ("Exit codes:") becomes a section.
     */
    private static void footer(StringBuilder b, CommandSpec spec) {
        String[] footer = spec.usageMessage().footer();
        if (footer.length == 0) {
            return;
        }
        String heading = spec.usageMessage().footerHeading().replace("%n", "").strip();
        b.append(".SH ").append(text(sectionName(heading))).append("\n.nf\n");
        for (String f : footer) {
            String plain = f.replace("%n", "").replace("%%", "%");
            if (!plain.isEmpty() && !plain.startsWith(" ") && plain.endsWith(":")) {
                b.append(".fi\n.SH ").append(text(sectionName(plain))).append("\n.nf\n");
            } else if (!plain.isBlank()) {
                b.append(text(plain)).append('\n');
            }
        }
        b.append(".fi\n");
    }

    private static String sectionName(String heading) {
        return heading.replaceAll(":$", "").toUpperCase(java.util.Locale.ROOT);
    }

    /** Text as roff reads it: backslashes and dashes escaped, no line starting a request. */
    public static String text(String s) {
        String t = s.replace("\\", "\\e").replace("-", "\\-");
        return t.startsWith(".") || t.startsWith("'") ? "\\&" + t : t;
    }

    private static String quoted(String s) {
        return "\"" + text(s).replace("\"", "\\(dq") + "\"";
    }
}
