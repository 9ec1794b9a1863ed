package nvidb.core.keeper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.NvidbException;

/**
 * Runs the keeper's helper programs ({@code sh}, {@code systemctl}, {@code journalctl}) with the
 * command's own environment (not this JVM's: a test or an embedder may give another), finding
 * them on that environment's {@code PATH}.
 */
final class Commands {
    record Ran(int exit, String out) {
        /** The output's last line, or the whole of it when it is one line; for messages. */
        String said() {
            String s = out.strip();
            return s.isEmpty() ? "exit status " + exit : s;
        }
    }

    private final Map<String, String> env;

    Commands(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The program {@code name} on the environment's PATH, or null. */
    Path find(String name) {
        String path = env.getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Runs a program, its stdout and stderr together; a program that does not end in time is killed. */
    Ran run(Duration timeout, Path program, String... args) {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw NvidbException.failed("could not run " + program + ": " + e.getMessage());
        }
        CompletableFuture<String> out = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> out.complete(read(p.getInputStream())));
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw NvidbException.failed(program.getFileName() + " " + String.join(" ", args)
                        + " did not finish within " + timeout.toSeconds() + " s");
            }
            return new Ran(p.exitValue(), out.get(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw NvidbException.interrupted();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return new Ran(p.exitValue(), "");
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
