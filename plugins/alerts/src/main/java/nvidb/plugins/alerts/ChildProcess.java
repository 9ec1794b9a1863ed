package nvidb.plugins.alerts;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs one short program for a sink (an alert command, notify-send) and tells how it ended. Only
 * the end of stderr is kept: it is what goes into the failure message, and a chatty hook must not
 * fill the daemon's memory.
 */
final class ChildProcess {

    /** How much of stderr's end is kept. */
    private static final int STDERR_TAIL_BYTES = 16 * 1024;
    /**
     * How long stderr may keep draining after the program exits. A background job the hook started
     * may hold the pipe open for ever; the hook's own output is already there by then.
     */
    private static final Duration DRAIN_GRACE = Duration.ofMillis(200);

    /**
     * @param exitCode the program's exit status (after a timeout: the status of the killed program)
     * @param timedOut whether it was killed for running past its timeout
     * @param stderr   the end of what it wrote on stderr
     */
    record Outcome(int exitCode, boolean timedOut, String stderr) {
        Outcome {
            Objects.requireNonNull(stderr, "stderr");
        }

        boolean ok() {
            return exitCode == 0 && !timedOut;
        }

        /** The last non-blank line of stderr, or a note that there was none. */
        String lastStderrLine() {
            List<String> lines = stderr.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
            return lines.isEmpty() ? "(nothing on stderr)" : lines.getLast();
        }

        /** A sentence for the failure message, naming the program, the exit code and stderr's last line. */
        String failure(String what, Duration timeout) {
            String how = timedOut
                    ? what + " did not finish within " + seconds(timeout) + " and was killed (exit code " + exitCode + ")"
                    : what + " exited with code " + exitCode;
            return how + ": " + lastStderrLine();
        }
    }

    private ChildProcess() {
    }

    /**
     * Runs {@code argv} with the inherited environment, feeds {@code stdin} (may be empty), discards
     * stdout and waits at most {@code timeout}; past it the program and everything it started are
     * killed.
     *
     * @throws IOException the program could not be started
     */
    static Outcome run(List<String> argv, byte[] stdin, Duration timeout) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        TailReader stderr = TailReader.start(process.getErrorStream());
        feed(process.getOutputStream(), stdin);

        boolean exited;
        try {
            exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            killTree(process);
            throw e;
        }
        if (!exited) {
            killTree(process);
            // Reap it so the exit code is the kill's, and give stderr its last lines.
            process.waitFor(1, TimeUnit.SECONDS);
        }
        stderr.awaitEnd(DRAIN_GRACE);
        int exitCode = process.isAlive() ? -1 : process.exitValue();
        return new Outcome(exitCode, !exited, stderr.text());
    }

    /**
     * Writes stdin on its own thread, so a program that never reads it cannot block the sink past
     * its timeout, and closes it so a program that reads to the end sees the end.
     */
    private static void feed(OutputStream stdin, byte[] bytes) {
        Thread writer = new Thread(() -> {
            try (stdin) {
                stdin.write(bytes);
            } catch (IOException brokenPipe) {
                // The program exited without reading its input; its exit status tells how it went.
            }
        }, "nvidb-alert-stdin");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Lists the descendants while the program is still their ancestor, then kills the program first
     * so it cannot start another command as its current one dies.
     */
    private static void killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    static String seconds(Duration timeout) {
        return BigDecimal.valueOf(timeout.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
    }

    /** Reads a pipe on a daemon thread, keeping only its last {@link #STDERR_TAIL_BYTES}. */
    private static final class TailReader {
        private final InputStream in;
        private final Thread thread;
        private byte[] tail = new byte[0];

        private TailReader(InputStream in) {
            this.in = in;
            this.thread = new Thread(this::pump, "nvidb-alert-stderr");
            // Daemon: a background job that holds the pipe must not keep the JVM alive.
            thread.setDaemon(true);
        }

        static TailReader start(InputStream in) {
            TailReader reader = new TailReader(in);
            reader.thread.start();
            return reader;
        }

        private void pump() {
            byte[] chunk = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    append(chunk, n);
                }
            } catch (IOException e) {
                // The pipe went away; what was read is what there is.
            }
        }

        private synchronized void append(byte[] chunk, int n) {
            ByteArrayOutputStream joined = new ByteArrayOutputStream(tail.length + n);
            joined.write(tail, 0, tail.length);
            joined.write(chunk, 0, n);
            byte[] all = joined.toByteArray();
            int from = Math.max(0, all.length - STDERR_TAIL_BYTES);
            tail = from == 0 ? all : Arrays.copyOfRange(all, from, all.length);
        }

        void awaitEnd(Duration grace) throws InterruptedException {
            thread.join(grace);
        }

        synchronized String text() {
            return new String(tail, StandardCharsets.UTF_8);
        }
    }
}
