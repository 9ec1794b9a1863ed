package nvidb.plugins.transport.local;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;

/**
 * Runs each script as {@code sh -s} with the script on stdin, exactly as the SSH transport does on
 * a remote node, so a script behaves the same whichever transport carries it.
 *
 * <p>Scripts start detached jobs ({@code setsid … &}). Such a job may inherit this process's
 * stdout and stderr pipes and keep them open long after {@code sh} has exited, so reading the
 * pipes to their end would wait for the job, not for the script. The answer is therefore "what
 * {@code sh} printed by the time it exited": the pipes are read on daemon threads, and once
 * {@code sh} exits the readers get a short grace to drain what is already buffered, then the result
 * is taken from what they have read.
 */
final class LocalTransport implements Transport {

    /**
     * How long readers may keep draining after {@code sh} exits. When nothing else holds the pipes
     * they reach end-of-file at once and this is never waited for; it only bounds the wait when a
     * background job holds them.
     */
    private static final Duration DRAIN_GRACE = Duration.ofMillis(200);

    private final String nodeName;
    private volatile boolean closed;

    LocalTransport(String nodeName) {
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    }

    @Override
    public ExecResult run(String script, Duration timeout, boolean idempotent) throws TransportException {
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        if (closed) {
            throw new IllegalStateException("the local transport to " + nodeName + " is closed");
        }
        // idempotent is not consulted: there is no connection here that could fail and be retried;
        // a failure to start sh is permanent and a script that ran has already had its effect.

        ProcessBuilder builder = new ProcessBuilder("sh", "-s");
        // The environment is inherited (ProcessBuilder's default), and the script starts in the home
        // directory, as an SSH session does, so relative paths such as the default job root
        // (.nvidb/jobs) mean the same on the local node as on a remote one.
        homeDirectory().ifPresent(builder::directory);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new TransportException("could not start sh for local node " + nodeName + ": " + e.getMessage(), e);
        }

        Drain stdout = Drain.start(process.getInputStream(), "nvidb-local-stdout");
        Drain stderr = Drain.start(process.getErrorStream(), "nvidb-local-stderr");
        feed(process.getOutputStream(), script);

        boolean exited;
        try {
            exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            killTree(process);
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while waiting for local node " + nodeName, e);
        }
        if (!exited) {
            killTree(process);
            throw new TransportException("local node " + nodeName + " did not answer within " + seconds(timeout));
        }

        long graceEnd = System.nanoTime() + DRAIN_GRACE.toNanos();
        try {
            stdout.awaitEnd(graceEnd);
            stderr.awaitEnd(graceEnd);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while reading the output of local node " + nodeName, e);
        }
        return new ExecResult(process.exitValue(), stdout.text(), stderr.text());
    }

    @Override
    public void close() {
        // Nothing is held between runs (each run is its own child process); closing only makes a
        // later run a visible mistake instead of a silent success.
        closed = true;
    }

    private static Optional<File> homeDirectory() {
        String home = System.getenv("HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("user.home");
        }
        if (home == null || home.isBlank() || !Files.isDirectory(Path.of(home))) {
            return Optional.empty();
        }
        return Optional.of(new File(home));
    }

    /**
     * Writes the script on its own thread: a script larger than the pipe buffer would otherwise
     * block this thread until sh read it, and sh may be waiting for us to drain its output.
     */
    private static void feed(OutputStream stdin, String script) {
        byte[] bytes = script.getBytes(StandardCharsets.UTF_8);
        Thread writer = new Thread(() -> {
            try (stdin) {
                stdin.write(bytes);
            } catch (IOException brokenPipe) {
                // sh exited (or ran `exit`) before reading the whole script; what it ran is the
                // result, and its exit status says how it went.
            }
        }, "nvidb-local-stdin");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Kills sh and everything below it. The descendants are listed first, while sh is still their
     * ancestor (once it dies they are re-parented and cannot be found), then sh is killed before
     * them so that it cannot start its next command when the current one dies.
     */
    private static void killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    private static String seconds(Duration timeout) {
        return BigDecimal.valueOf(timeout.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
    }

    /** Reads one pipe to its end on a daemon thread, keeping what it has read so far. */
    private static final class Drain {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final Thread thread;
        private final InputStream in;

        private Drain(InputStream in, String name) {
            this.in = in;
            this.thread = new Thread(this::pump, name);
            // Daemon: a detached job that holds the pipe must not keep the JVM alive. Such a reader
            // stays blocked until that job closes the pipe (closing the stream from another thread
            // does not wake a blocked read on Linux); scripts that redirect their jobs' output,
            // as nvidb's own do, never leave one behind.
            thread.setDaemon(true);
        }

        static Drain start(InputStream in, String name) {
            Drain drain = new Drain(in, name);
            drain.thread.start();
            return drain;
        }

        private void pump() {
            byte[] chunk = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    synchronized (buffer) {
                        buffer.write(chunk, 0, n);
                    }
                }
            } catch (IOException e) {
                // The pipe was closed under the reader; what was read so far is the output.
            }
        }

        void awaitEnd(long deadlineNanos) throws InterruptedException {
            long left = deadlineNanos - System.nanoTime();
            if (left > 0) {
                thread.join(Duration.ofNanos(left));
            }
        }

        String text() {
            synchronized (buffer) {
                return buffer.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
