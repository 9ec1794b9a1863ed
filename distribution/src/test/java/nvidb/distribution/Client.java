package nvidb.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code bin/nvidb} command run as its own process (the launcher execs the JVM, so the pid
 * is the JVM's and a SIGKILL reaches nvidb itself, not a shell in front of it). Output goes to
 * files, so a killed process never blocks on a pipe and what it printed before dying is kept.
 *
 * @param kind   submit, tick or cancel
 * @param name   the job name (and idempotency key) of a submit, else null
 * @param killAt milliseconds after the start when to SIGKILL it if still alive, or -1 for never
 */
record Client(String kind, String name, List<String> args, Process process, Path out, Path err, long killAt,
              long startedNanos, boolean[] killed, long[] endedNanos) {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The built image's launcher ({@code -Dnvidb.image}, set by the POM, else target/nvidb). */
    static Path image() {
        Path nvidb = Path.of(System.getProperty("nvidb.image", "target/nvidb"), "bin", "nvidb").toAbsolutePath();
        if (!Files.isExecutable(nvidb)) {
            throw new AssertionError("no image at " + nvidb);
        }
        return nvidb;
    }

    static Client start(Path nvidb, Map<String, String> env, Path dir, String kind, String name, long killAt,
                        List<String> args) {
        try {
            Path out = Files.createTempFile(dir, kind, ".out");
            Path err = Files.createTempFile(dir, kind, ".err");
            List<String> command = new java.util.ArrayList<>();
            command.add(nvidb.toString());
            command.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().putAll(env);
            pb.environment().remove("NVIDB_QUEUE_DB");
            long[] ended = new long[1];
            Process p = pb.start();
            Client c = new Client(kind, name, args, p, out, err, killAt, System.nanoTime(), new boolean[1], ended);
            p.onExit().thenRun(() -> ended[0] = System.nanoTime());
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL (destroyForcibly is SIGKILL on Unix) if it is still running; true when it was. */
    boolean kill() {
        if (!process.isAlive()) {
            return false;
        }
        process.destroyForcibly();
        killed[0] = true;
        return true;
    }

    boolean wasKilled() {
        return killed[0];
    }

    /** Waits for the end; a command that does not end is a defect of its own. */
    int finish(long seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(this + " did not end within " + seconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return process.exitValue();
    }

    /** How long it ran, start to exit (call after {@link #finish}). */
    long runtimeMs() {
        return TimeUnit.NANOSECONDS.toMillis((endedNanos[0] == 0 ? System.nanoTime() : endedNanos[0]) - startedNanos);
    }

    String stdout() {
        return read(out);
    }

    String stderr() {
        return read(err);
    }

    /** The one JSON document it printed, or null when it printed none (or half of one). */
    JsonNode document() {
        try {
            String text = stdout();
            return text.isBlank() ? null : JSON.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "nvidb " + String.join(" ", args) + " (pid " + process.pid() + (wasKilled() ? ", SIGKILLed" : "") + ")";
    }
}
