package nvidb.web;

import nvidb.core.api.TickMode;

/**
 * {@code nvidb queue web} on its own keeps the queue moving while it serves, as the TUI does with
 * auto-tick: a pass when due every {@link #EVERY_MS} (a queue daemon, where one runs, makes it
 * instead). Inside the daemon there is none: the daemon makes its own.
 */
final class Passes implements AutoCloseable {
    static final long EVERY_MS = 3000;

    private final Pool pool;
    private Thread thread;

    Passes(Pool pool) {
        this.pool = pool;
    }

    void start() {
        thread = Thread.ofVirtual().name("nvidb-web-passes").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    pool.with((app, caller) -> app.tick(caller, TickMode.AUTO));
                } catch (RuntimeException e) {
                    // a failed pass is the next one's to retry; the pages show the nodes' errors
                }
                try {
                    Thread.sleep(EVERY_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
        }
    }
}
