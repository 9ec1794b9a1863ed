package nvidb.cli.startup.build;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.cli.Main;
import nvidb.cli.output.Output;

/**
 * The AOT cache's training run (bin/nvidb-train-aot starts it with bin/nvidb's JVM and flags, and
 * nothing else does): the command lines people run most, one after the other in this one JVM,
 * each through {@link Main#run} as a process of its own runs it (its shutdown hook, its signal
 * relay when forwarded), against the throwaway queue in {@code NVIDB_HOME}. A JDK 25 cache records
 * one JVM run: the classes it loaded, linked and profiled are what later commands start with, so
 * every command here starts faster (a submit, a list, a scheduler pass on the local node, a wait,
 * a log read), where training on one submit left the rest to load and link on every start.
 */
public final class AotTraining {
    /** The training: {@code --version}, then a job through its whole life, read every usual way. */
    static final List<List<String>> COMMANDS = List.of(
            List.of("--version"),
            List.of("job", "submit", "--json", "--gpus", "0", "--no-tick", "--name", "aot-a", "--", "true"),
            List.of("job", "submit", "--json", "--gpus", "0", "--name", "aot-b", "--", "echo", "trained"),
            List.of("job", "submit", "--gpus", "0", "--name", "aot-c", "--", "true"),
            List.of("queue", "tick", "--json"),
            List.of("job", "wait", "2", "--timeout", "30", "--json"),
            List.of("job", "wait", "3", "--timeout", "30"),
            List.of("job", "ls", "--json"),
            List.of("job", "ls", "--json", "--no-tick"),
            List.of("job", "ls"),
            List.of("job", "show", "2", "--json"),
            List.of("job", "show", "2"),
            List.of("job", "logs", "2"),
            List.of("job", "logs", "2", "--json"),
            List.of("queue", "status", "--json"),
            List.of("queue", "status"),
            List.of("queue", "tick"),
            List.of("job", "sweep", "--json", "--gpus", "0", "--no-tick", "--name", "aot-s", "--grid", "i=1,2", "--",
                    "echo", "{i}"),
            List.of("sweep", "show", "1", "--json", "--no-tick", "--metric", "loss"),
            List.of("sweep", "show", "1", "--no-tick"),
            // What a Tab runs in bash, zsh and fish: it should answer within a keystroke.
            List.of("completion", "--candidates", "jobs"),
            List.of("completion", "--candidates", "nodes"),
            List.of("job", "submit", "--help"),
            // What agents poll and act with besides: events, nodes, sweeps, a cancel (of job 6,
            // the submit just before it: jobs 1-3 and the sweep's runs 4-5 come first).
            List.of("job", "submit", "--json", "--gpus", "0", "--no-tick", "--name", "aot-d", "--", "true"),
            List.of("job", "cancel", "6", "--json"),
            List.of("queue", "events", "--json"),
            List.of("queue", "events"),
            List.of("queue", "nodes", "--json", "--no-tick"),
            List.of("sweep", "ls", "--no-tick"),
            List.of("sweep", "ls", "--json", "--no-tick"));

    /**
     * Run again as a client whose queue is on another host ({@code remote:}), where bin/nvidb-train-aot
     * set one up ({@value #CLIENT_HOME}: its home; {@value #SSH_PATH}: a folder whose {@code ssh}
     * runs the host's command right there): forwarding reads a {@code remote:} block, starts ssh and
     * relays the answer, none of which the commands above load.
     */
    static final List<List<String>> FORWARDED = List.of(
            List.of("job", "submit", "--json", "--gpus", "0", "--no-tick", "--name", "aot-f", "--", "true"),
            List.of("job", "ls", "--no-tick"));
    static final String CLIENT_HOME = "NVIDB_AOT_CLIENT_HOME";
    static final String SSH_PATH = "NVIDB_AOT_SSH_PATH";

    private AotTraining() {
    }

    /** Runs the training; exits 1, naming each command that failed (a broken image). */
    public static void main(String[] args) {
        List<String> failed = new ArrayList<>();
        Map<String, String> env = withPwd(System.getenv());
        COMMANDS.forEach(command -> run(command, env, failed));
        if (env.containsKey(CLIENT_HOME) && env.containsKey(SSH_PATH)) {
            Map<String, String> client = new HashMap<>(env);
            client.put("NVIDB_HOME", env.get(CLIENT_HOME));
            client.put("PATH", env.get(SSH_PATH) + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
            FORWARDED.forEach(command -> run(command, client, failed));
        }
        failed.forEach(Output.system().err()::println);
        Main.exit(failed.isEmpty() ? 0 : 1);
    }

    private static void run(List<String> command, Map<String, String> env, List<String> failed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(command.toArray(String[]::new), env,
                new Output(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)),
                InputStream.nullInputStream());
        if (code != 0) {
            failed.add("nvidb " + String.join(" ", command) + " (NVIDB_HOME=" + env.get("NVIDB_HOME") + ") exited " + code
                    + ": " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
        }
    }

    private static Map<String, String> withPwd(Map<String, String> env) {
        return Main.withWorkingDirectory(env, java.nio.file.Path.of(System.getProperty("user.dir")));
    }
}
