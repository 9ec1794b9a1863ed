package nvidb.cli.context;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT (Ctrl-C) and SIGTERM end the JVM through its shutdown hooks, with exit 130 and 143. Left
 * alone, that would drop a scheduler lease held by the command on the floor (every other client
 * answers busy until it expires) and print nothing. This hook interrupts the command's thread, so
 * a wait reports where it stands and a pass stops and releases its lease on its own way out; then
 * it gives back whatever lease is still held, should the command not get there within a grace.
 */
public final class ShutdownGuard {
    /** How long the interrupted command may take to report and let go; Ctrl-C should feel prompt. */
    static final Duration GRACE = Duration.ofSeconds(5);

    private final CountDownLatch finished = new CountDownLatch(1);

    private ShutdownGuard() {
    }

    /** Installs the hook for the command about to run on the calling thread. */
    public static ShutdownGuard install(CliContext context) {
        ShutdownGuard guard = new ShutdownGuard();
        Thread command = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(new Hook(guard, command, context), "nvidb-shutdown"));
        return guard;
    }

    /**
     * The hook's body, a class rather than a lambda: a class comes from the AOT cache as it is,
     * where a lambda is spun at run time unless the training made that very one (~1 ms).
     */
    private record Hook(ShutdownGuard guard, Thread command, CliContext context) implements Runnable {
        @Override
        public void run() {
            guard.onShutdown(command, context);
        }
    }

    /** The command returned and printed its answer: an exit from here on is the ordinary one. */
    public void finished() {
        finished.countDown();
    }

    private void onShutdown(Thread command, CliContext context) {
        if (finished.getCount() == 0) {
            return;
        }
        command.interrupt();
        try {
            finished.await(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        context.releaseLeases();
    }
}
