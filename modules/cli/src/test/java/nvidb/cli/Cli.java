package nvidb.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import nvidb.cli.output.Output;

/**
 * Drives the real {@code nvidb} command line against a private NVIDB_HOME: in this JVM through
 * the same entry point {@code main} uses, or as separate processes for concurrency tests.
 */
public final class Cli {
    static final ObjectMapper JSON = new ObjectMapper();

    public record Result(int exit, String out, String err) {
        public JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("stdout is not one JSON document (exit " + exit + "):\n" + out + "\nstderr:\n" + err, e);
            }
        }

        @Override
        public String toString() {
            return "exit=" + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private final Path home;
    private final Map<String, String> env = new HashMap<>();

    public Cli(Path home) {
        this.home = home;
        env.put("HOME", home.toString());
        env.put("NVIDB_HOME", home.resolve(".nvidb").toString());
        env.put("USER", "tester");
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    }

    public Cli env(String key, String value) {
        env.put(key, value);
        return this;
    }

    public Path home() {
        return home;
    }

    /** The environment this test's nvidb runs with. */
    public Map<String, String> environment() {
        return Map.copyOf(env);
    }

    public Path nvidbHome() {
        return Path.of(env.get("NVIDB_HOME"));
    }

    public Path database() {
        return nvidbHome().resolve("queue.db");
    }

    /** Runs one command line in this JVM. */
    public Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Nvidb.run(args, env, new Output(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs one command line, expecting success and JSON. */
    public JsonNode json(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        int dd = all.indexOf("--");
        all.add(dd < 0 ? all.size() : dd, "--json");
        Result r = run(all.toArray(String[]::new));
        if (r.exit() != 0) {
            throw new AssertionError("expected success from " + all + "\n" + r);
        }
        return r.json();
    }

    /** The java command that runs nvidb in a fresh JVM with this test's class path. */
    public List<String> javaCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Xshare:auto", "-cp", System.getProperty("java.class.path"), "nvidb.cli.Main"));
    }

    /** Starts one command line as a JVM of its own (a process to signal), with this test's environment. */
    public Process start(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        if (RESETS_SIGNALS) {
            // A shell's background job starts with SIGINT ignored, and a JVM keeps it ignored: a
            // suite run from `./run-tests &` would then test nothing. A user's terminal has the default.
            command.add("env");
            command.add("--default-signal=INT");
        }
        command.addAll(javaCommand());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(env);
        return pb.start();
    }

    /** Whether this machine's {@code env} can reset a signal's handling to the default (coreutils 8.31+). */
    private static final boolean RESETS_SIGNALS = resetsSignals();

    private static boolean resetsSignals() {
        try {
            return new ProcessBuilder("env", "--default-signal=INT", "true").start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts a shell that may call {@code nvidb} (a function wrapping the JVM) many times. */
    public Process shell(String script) throws IOException {
        String fn = "nvidb() { " + String.join(" ", javaCommand().stream().map(Cli::q).toList()) + " \"$@\"; }\n";
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", fn + script);
        pb.environment().clear();
        pb.environment().putAll(env);
        return pb.start();
    }

    public Result runShell(String script, long timeoutSeconds) throws IOException, InterruptedException {
        Process p = shell(script);
        return finish(p, timeoutSeconds);
    }

    public static Result finish(Process p, long timeoutSeconds) throws IOException, InterruptedException {
        var out = new java.util.concurrent.CompletableFuture<String>();
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread.ofVirtual().start(() -> out.complete(read(p.getInputStream())));
        Thread.ofVirtual().start(() -> err.complete(read(p.getErrorStream())));
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("process did not finish within " + timeoutSeconds + " s");
        }
        return new Result(p.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static String q(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    public void write(String relative, String content) throws IOException {
        Path p = home.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }
}
