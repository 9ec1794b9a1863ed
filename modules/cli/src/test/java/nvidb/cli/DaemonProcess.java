package nvidb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A {@code nvidb queue daemon --json} running as a JVM of its own: its JSON Lines are collected as
 * they come, so a test can wait for a pass of a given kind; stderr is kept for failure messages.
 */
final class DaemonProcess implements AutoCloseable {
    final Process process;
    private final List<JsonNode> lines = new ArrayList<>();
    private final StringBuilder err = new StringBuilder();
    private boolean ended;

    private DaemonProcess(Process process) {
        this.process = process;
        Thread.ofVirtual().start(() -> collect());
        Thread.ofVirtual().start(() -> {
            try {
                String text = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                synchronized (err) {
                    err.append(text);
                }
            } catch (IOException e) {
                // the process is gone
            }
        });
    }

    static DaemonProcess start(Cli cli, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("queue", "daemon", "--json"));
        args.addAll(List.of(options));
        return new DaemonProcess(cli.start(args.toArray(String[]::new)));
    }

    private void collect() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode doc = Cli.JSON.readTree(line);
                synchronized (lines) {
                    lines.add(doc);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone, or printed something that is not JSON: the test sees it in lines()
        }
        synchronized (lines) {
            ended = true;
            lines.notifyAll();
        }
    }

    long pid() {
        return process.pid();
    }

    List<JsonNode> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Waits for a printed document that matches; fails with what was printed when none comes. */
    JsonNode await(Predicate<JsonNode> wanted, Duration timeout, String what) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        synchronized (lines) {
            while (true) {
                for (JsonNode doc : lines) {
                    if (wanted.test(doc)) {
                        return doc;
                    }
                }
                if (ended || Instant.now().isAfter(deadline)) {
                    throw new AssertionError("the daemon printed no " + what + " (alive: " + process.isAlive()
                            + "):\n" + lines + "\nstderr:\n" + stderr());
                }
                lines.wait(200);
            }
        }
    }

    /** Its first pass: it is registered by then. */
    JsonNode awaitFirstPass() throws InterruptedException {
        return await(d -> d.has("tick"), Duration.ofSeconds(60), "first pass");
    }

    String stderr() {
        synchronized (err) {
            return err.toString();
        }
    }

    /** Sends a signal by name (TERM, INT) and waits for the exit; returns the exit status. */
    int signalAndWait(String signal, Duration timeout) throws Exception {
        new ProcessBuilder("kill", "-" + signal, String.valueOf(pid())).start().waitFor();
        if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the daemon did not exit within " + timeout + " of SIG" + signal + ":\n" + stderr());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
