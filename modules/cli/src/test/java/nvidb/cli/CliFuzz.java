package nvidb.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Random command lines for the CLI fuzzer: a real command of the tree (sometimes misspelt), some
 * of its own options and some of others', with values that are right, nearly right or hostile.
 * Commands that keep running (the TUI, the daemon, the keeper, following and waiting) are left
 * out: they are not input handling, and they would hold the fuzzer up.
 */
final class CliFuzz {
    /**
     * Commands and options that block or start processes that outlive the command: the web server
     * serves until stopped, like the daemon.
     */
    static final Set<String> BLOCKING = Set.of("tui", "daemon", "keeper", "web", "wait", "-f", "--follow", "--watch", "--wait");
    /** The exit codes of the table in decisions.md §5 (docs/exit-codes.md). */
    static final Set<Integer> EXIT_CODES = Set.of(0, 1, 2, 3, 4, 64, 69, 130, 143);

    private static final String[] VALUES = {"1", "2", "3", "0", "-1", "+1", "-2", "5", "12", "999", "1,2", "1,x", ",",
        "2147483647", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808", "1e3", "0.5", "1.5G",
        "20G", "512M", "-1G", "20X", "1T", "99999999999T", "head", "tail", "HEAD", "local", "local:0", "nowhere:0",
        "box:x", "pending", "running", "held", "sleeping", "{\"a\": 1}", "[1,2]", "\"s\"", "null", "1 2", "{\"a\":",
        "not json", "", " ", "\t", "-", "--", "--json", "-n", "%s", "$(rm -rf /)", "'; DROP TABLE jobs; --",
        "\u00e9\u0663\u4e2d", "\u202e", "a=b", "1BAD=x", "X=1", "true", "false", "/no/such/file", "/no/such/dir/",
        "x".repeat(5000), "1".repeat(400), "\n", "spread", "warning", "error"};
    private static final String[] WORDS = {"job", "queue", "plugins", "submit", "ls", "show", "cancel", "lane", "x",
        "--help", "-h", "--version", "--json", "--no-tick", "--tick", "--local", "--db-path"};

    private final List<List<String>> commands = new ArrayList<>();
    private final Map<List<String>, List<OptionSpec>> options = new java.util.HashMap<>();
    private final List<OptionSpec> allOptions = new ArrayList<>();

    CliFuzz() {
        CliContext ctx = new CliContext(Map.of(), new Output(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
        walk(Nvidb.commandLine(ctx), new ArrayList<>());
    }

    private void walk(CommandLine cmd, List<String> path) {
        if (BLOCKING.contains(cmd.getCommandName())) {
            return;
        }
        if (!path.isEmpty() && (cmd.getSubcommands().isEmpty() || !path.equals(List.of("queue")))) {
            commands.add(List.copyOf(path));
            options.put(List.copyOf(path), cmd.getCommandSpec().options());
            allOptions.addAll(cmd.getCommandSpec().options());
        }
        cmd.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandName().equals(name)) { // not an alias twice
                List<String> next = new ArrayList<>(path);
                next.add(name);
                walk(sub, next);
            }
        });
    }

    /**
     * One random command line; never one that blocks. A backup's PATH and the manual pages' folder are always under
     * {@code scratch} (a relative one would land in the test's working directory).
     */
    List<String> next(Random random, long someJob, java.nio.file.Path scratch) {
        while (true) {
            List<String> argv = generate(random, someJob);
            if (argv.contains("backup") || argv.contains("restore")) {
                argv.removeIf(a -> !a.startsWith("-") && !a.equals("queue") && !a.equals("backup") && !a.equals("restore")
                        && !a.matches("[0-9]+"));
                argv.add(scratch.resolve("b" + random.nextInt(1000)).toString());
            }
            if (argv.contains("manpages")) { // writes its pages into the folder it is given
                argv.removeIf(a -> !a.startsWith("-") && !a.equals("manpages"));
                argv.add(scratch.resolve("man" + random.nextInt(1000)).toString());
            }
            if (argv.stream().noneMatch(BLOCKING::contains) && !argv.equals(List.of("queue"))
                    && !(argv.size() >= 1 && argv.getFirst().equals("queue") && argv.stream().allMatch(a -> a.equals("queue") || a.startsWith("-")))) {
                return argv;
            }
        }
    }

    private List<String> generate(Random random, long someJob) {
        List<String> path = commands.get(random.nextInt(commands.size()));
        List<String> argv = new ArrayList<>(path);
        if (random.nextInt(20) == 0) { // a misspelt or missing command word
            int at = random.nextInt(argv.size());
            argv.set(at, mutate(random, argv.get(at)));
        }
        List<OptionSpec> own = options.get(path);
        for (int n = random.nextInt(5); n > 0; n--) {
            OptionSpec o = random.nextInt(5) > 0 && !own.isEmpty() ? own.get(random.nextInt(own.size()))
                    : allOptions.get(random.nextInt(allOptions.size()));
            String[] names = o.names();
            argv.add(names[random.nextInt(names.length)]);
            if (o.arity().max() > 0 && random.nextInt(12) > 0) {
                argv.add(value(random, someJob));
            }
        }
        for (int n = random.nextInt(4); n > 0; n--) {
            argv.add(random.nextInt(3) == 0 ? Long.toString(someJob) : value(random, someJob));
        }
        if (random.nextInt(6) == 0) {
            argv.add("--");
            argv.add(random.nextBoolean() ? "true" : value(random, someJob));
        }
        if (random.nextInt(8) == 0) {
            argv.add(random.nextInt(argv.size() + 1), WORDS[random.nextInt(WORDS.length)]);
        }
        // --db-path takes the next word as a path: keep the fuzzer on its own queue.
        argv.replaceAll(a -> a.equals("--db-path") ? "--no-tick" : a);
        return argv;
    }

    private static String value(Random random, long someJob) {
        int kind = random.nextInt(10);
        if (kind < 7) {
            return VALUES[random.nextInt(VALUES.length)];
        }
        if (kind < 8) {
            return Long.toString(someJob);
        }
        return mutate(random, VALUES[random.nextInt(VALUES.length)]);
    }

    private static String mutate(Random random, String text) {
        String chars = "0123456789-+,.: xX\u00e9";
        char c = chars.charAt(random.nextInt(chars.length()));
        if (text.isEmpty()) {
            return String.valueOf(c);
        }
        int at = random.nextInt(text.length());
        return switch (random.nextInt(3)) {
            case 0 -> text.substring(0, at) + c + text.substring(at + 1);
            case 1 -> text.substring(0, at) + text.substring(at + 1);
            default -> text.substring(0, at) + c + text.substring(at);
        };
    }
}
