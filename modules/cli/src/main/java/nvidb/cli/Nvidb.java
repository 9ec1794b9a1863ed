package nvidb.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import nvidb.cli.commands.CompletionCommand;
import nvidb.cli.commands.DoctorCommand;
import nvidb.cli.commands.JobCommand;
import nvidb.cli.commands.ManPagesCommand;
import nvidb.cli.commands.McpCommand;
import nvidb.cli.commands.PluginsCommand;
import nvidb.cli.commands.QueueCommand;
import nvidb.cli.commands.SweepCommand;
import nvidb.cli.context.CliContext;
import nvidb.cli.context.ContextHolder;
import nvidb.cli.context.Interrupted;
import nvidb.cli.forward.ForwardClient;
import nvidb.cli.forward.McpRelay;
import nvidb.cli.output.Output;
import nvidb.cli.startup.CommandLines;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.RemoteSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/** The root command: {@code nvidb queue …}, {@code nvidb job …}, {@code nvidb sweep …}, {@code nvidb plugins}. */
@Command(name = "nvidb", mixinStandardHelpOptions = true, versionProvider = Nvidb.Version.class,
        description = "A GPU job queue for your own machines: jobs wait in one SQLite file until a GPU has room.",
        footerHeading = "%nExit codes:%n", footer = {
            "  0    success",
            "  1    failure: a waited-for job ended badly; open alerts; nothing keeps the queue moving (queue keeper",
            "       status); a command that could not do its work",
            "  2    job wait / submit --wait: the timeout ran out with work still going",
            "  3    not found: unknown job, node, lane, alert",
            "  4    busy or conflict: the scheduler lease is held, the transition is illegal, or a queue daemon",
            "       already serves the database",
            "  64   usage: unknown option, bad or empty size or duration, bad id, malformed value",
            "  69   unavailable: the queue host (remote:) could not be reached, refused, or has no usable nvidb",
            "  77   forbidden: the job is another OS account's and you are not one of queue.admins",
            "  130  interrupted (Ctrl-C, SIGINT)",
            "  143  terminated (SIGTERM); queue daemon ends with 0 on the first SIGINT or SIGTERM"})
public final class Nvidb implements Runnable, ContextHolder {
    private final CliContext context;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print exactly one JSON document on stdout (JSON Lines, one document a line, in the streaming modes job logs -f and queue tick --watch).")
    void json(boolean value) {
        if (value) {
            context.output().setJson(true);
        }
    }

    @Option(names = "--db-path", scope = ScopeType.INHERIT, paramLabel = "PATH",
            description = "The queue database (default: $NVIDB_QUEUE_DB, else $NVIDB_HOME/queue.db).")
    void dbPath(String value) {
        if (value != null) {
            context.setDbPath(value);
        }
    }

    @Option(names = "--local", scope = ScopeType.INHERIT,
            description = "Use this machine's queue instead of forwarding to the queue host the configuration names (remote:).")
    void local(boolean value) {
        if (value) {
            context.setLocal(true);
        }
    }

    Nvidb(CliContext context) {
        this.context = context;
    }

    @Override
    public CliContext context() {
        return context;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "pick a command: queue, job, sweep or plugins");
    }

    /** Runs one command line and returns the exit code; never throws, never exits. */
    public static int run(String[] args, Map<String, String> env, Output output) {
        return run(args, new CliContext(env, output));
    }

    /** Runs one command line with a context the caller made (Main, to reach it from a shutdown hook). */
    static int run(String[] args, CliContext context) {
        Output output = context.output();
        // --json anywhere before "--" asks for JSON errors too, even when parsing fails early.
        List<String> before = Arrays.asList(args).subList(0, indexOfDoubleDash(args));
        output.setJson(before.contains("--json"));
        try {
            Integer forwarded = forwarded(args, context);
            if (forwarded != null) {
                return forwarded;
            }
            CommandLine cli = commandLine(context, args);
            return cli.execute(args);
        } finally {
            context.close();
        }
    }

    /**
     * A job or queue command where the configuration names a queue host ({@code remote:}) runs
     * there, decided before any command is built: the exit code of that, or null to run it here.
     */
    private static Integer forwarded(String[] args, CliContext context) {
        List<String> words = commandWords(args);
        if (McpRelay.wanted(args, words)) {
            Optional<RemoteSettings> host;
            try {
                host = context.remoteQueue();
            } catch (NvidbException e) {
                return report(context, e);
            }
            return host.map(h -> new McpRelay(h, context.env().get("NVIDB_SUBMITTER"))
                    .run(context.stdin(), context.output().out(), context.output().err())).orElse(null);
        }
        if (!ForwardClient.wanted(args, words)) {
            return null;
        }
        Optional<RemoteSettings> host;
        try {
            host = context.remoteQueue();
        } catch (NvidbException e) {
            return report(context, e);
        }
        return host.map(h -> new ForwardClient(h, args, words, context).run()).orElse(null);
    }

    private static int indexOfDoubleDash(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) {
                return i;
            }
        }
        return args.length;
    }

    /** The whole command tree (help, tests of the skill). */
    static CommandLine commandLine(CliContext context) {
        return commandLine(context, new String[0]);
    }

    /**
     * The command tree for one command line. Picocli reads every command's annotations when it
     * is registered, which costs more start-up time than the command itself, so only the branch
     * {@code args} names is registered; with no recognised branch (help, typos) everything is.
     */
    static CommandLine commandLine(CliContext context, String[] args) {
        CommandLine cli = tree(context, args, CommandLines.fromModel());
        HelpText.apply(cli);
        cli.setOut(new java.io.PrintWriter(context.output().out(), true));
        cli.setErr(new java.io.PrintWriter(context.output().err(), true));
        cli.setParameterExceptionHandler((ex, badArgs) -> {
            String hint = ex.getCommandLine().getCommandSpec().qualifiedName() + " --help";
            return context.output().error(ErrorCode.USAGE, ex.getMessage() + " (see " + hint + ")");
        });
        cli.setExecutionExceptionHandler((ex, line, parseResult) -> report(context, ex));
        cli.setExitCodeExceptionMapper(ex -> ErrorCode.FAILED.exitCode());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        return cli;
    }

    /**
     * The commands of the branch {@code args} names, as {@code lines} makes them (the build-time
     * model, or picocli's reading of the annotations), before help text and handlers.
     */
    public static CommandLine tree(CliContext context, String[] args, CommandLines lines) {
        CommandLine cli = lines.of(new Nvidb(context));
        List<String> words = commandWords(args);
        String group = words.isEmpty() ? null : words.get(0);
        String leaf = words.size() > 1 ? words.get(1) : null;
        boolean known = "plugins".equals(group) || (group != null && TOOLS.contains(group))
                || ("job".equals(group) && JobCommand.SUBCOMMANDS.containsKey(leaf))
                || ("queue".equals(group) && QueueCommand.SUBCOMMANDS.containsKey(leaf))
                || ("sweep".equals(group) && SweepCommand.SUBCOMMANDS.containsKey(leaf));
        // "nvidb --version" (or -V) alone prints the version and nothing of the subcommands.
        boolean versionOnly = args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
        if (!versionOnly && (!known || "queue".equals(group))) {
            cli.addSubcommand("queue", group(lines, new QueueCommand(), QueueCommand.SUBCOMMANDS, known ? leaf : null));
        }
        if (!versionOnly && (!known || "job".equals(group))) {
            cli.addSubcommand("job", group(lines, new JobCommand(), JobCommand.SUBCOMMANDS, known ? leaf : null));
        }
        if (!versionOnly && (!known || "sweep".equals(group))) {
            cli.addSubcommand("sweep", group(lines, new SweepCommand(), SweepCommand.SUBCOMMANDS, known ? leaf : null));
        }
        if (!versionOnly && (!known || "plugins".equals(group))) {
            cli.addSubcommand("plugins", lines.of(new PluginsCommand()));
        }
        // Completion scripts and manual pages describe the whole tree, built only when they run.
        Supplier<CommandLine> whole = () -> {
            CommandLine all = tree(context, new String[0], lines);
            HelpText.apply(all);
            return all;
        };
        if (!versionOnly && (!known || "completion".equals(group))) {
            cli.addSubcommand("completion", lines.of(new CompletionCommand(whole)));
        }
        if (!versionOnly && (!known || "doctor".equals(group))) {
            cli.addSubcommand("doctor", lines.of(new DoctorCommand(() -> QueueHostCheck.of(context))));
        }
        if (!versionOnly && (!known || "mcp".equals(group))) {
            cli.addSubcommand("mcp", lines.of(new McpCommand()));
        }
        if (!versionOnly && (!known || "manpages".equals(group))) {
            cli.addSubcommand("manpages", lines.of(new ManPagesCommand(whole)));
        }
        return cli;
    }

    /** The commands of the root that are neither queue nor job nor plugins. */
    private static final java.util.Set<String> TOOLS = java.util.Set.of("completion", "doctor", "manpages", "mcp");

    private static CommandLine group(CommandLines lines, Object command,
                                     java.util.Map<String, java.util.function.Supplier<Object>> subs, String only) {
        CommandLine group = lines.of(command);
        subs.forEach((name, factory) -> {
            if (only == null || only.equals(name)) {
                group.addSubcommand(name, lines.of(factory.get()));
            }
        });
        return group;
    }

    /** The words of a command line that are not options (up to {@code --}); --db-path takes a value. */
    static List<String> commandWords(String[] args) {
        List<String> words = new java.util.ArrayList<>();
        for (int i = 0; i < args.length && words.size() < 2; i++) {
            String a = args[i];
            if (a.equals("--")) {
                break;
            }
            if (a.equals("--db-path")) {
                i++;
            } else if (!a.startsWith("-")) {
                words.add(a);
            }
        }
        return words;
    }

    private static int report(CliContext context, Exception ex) {
        if (context.debug()) {
            ex.printStackTrace(context.output().err());
        }
        if (ex instanceof NvidbException n) {
            return context.output().error(n.code(), n.getMessage());
        }
        if (ex instanceof Interrupted) {
            return context.output().error(ErrorCode.INTERRUPTED, "interrupted");
        }
        String message = ex.getClass().getSimpleName() + ": " + ex.getMessage();
        return context.output().error(ErrorCode.FAILED, message
                + (context.debug() ? "" : " (set NVIDB_DEBUG=1 for the stack trace)"));
    }

    /** {@code nvidb --version}: the POM's version and the commit the build was made from. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"nvidb " + property("version.properties", "version")
                    + " (commit " + property("commit.properties", "commit") + ")"};
        }

        /** A value the build wrote into a resource of this package; "unknown" where it did not. */
        static String property(String resource, String key) {
            Properties p = new Properties();
            try (InputStream in = Nvidb.class.getResourceAsStream(resource)) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                // fall back to "unknown" below
            }
            return p.getProperty(key, "unknown");
        }
    }
}
