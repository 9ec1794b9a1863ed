package nvidb.tui.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One thread with a queue of its own (its own database connection: a queue is used by one thread
 * at a time), doing the work the UI thread hands it so that no key waits for a node. Work is
 * named: work handed in under a name still waiting replaces the older one, so a slow node never
 * piles up refreshes behind it. Results go back through {@code deliver}, which runs them on the
 * UI thread.
 */
final class Worker implements AutoCloseable {
    private final String name;
    private final Supplier<Session> opener;
    private final Consumer<Runnable> deliver;
    private final Map<String, Task> waiting = new LinkedHashMap<>();
    private final Thread thread;
    private boolean closed;
    private volatile String busyWith;
    private Session queue;

    /**
     * @param opener  opens this worker's queue, on its own thread, on first use
     * @param deliver hands a result (a change of the model) to the UI thread
     */
    Worker(String name, Supplier<Session> opener, Consumer<Runnable> deliver) {
        this.name = name;
        this.opener = opener;
        this.deliver = deliver;
        this.thread = Thread.ofPlatform().daemon().name("nvidb-tui-" + name).unstarted(this::loop);
        thread.start();
    }

    /** Work, and what to do on the UI thread when it fails (opening the queue included). */
    private record Task(Function<Session, Runnable> work, Function<RuntimeException, Runnable> onError) {
    }

    /**
     * Hands in work under {@code key}: it runs with this worker's queue and returns what to do on
     * the UI thread with its outcome; {@code onError} says what to do there when it throws.
     */
    void submit(String key, Function<Session, Runnable> work, Function<RuntimeException, Runnable> onError) {
        synchronized (waiting) {
            if (closed) {
                return;
            }
            waiting.remove(key);
            waiting.put(key, new Task(work, onError));
            waiting.notifyAll();
        }
    }

    /** Whether work under {@code key} waits or runs now. */
    boolean pending(String key) {
        synchronized (waiting) {
            return waiting.containsKey(key) || key.equals(busyWith);
        }
    }

    private void loop() {
        while (true) {
            String key;
            Task task;
            synchronized (waiting) {
                while (waiting.isEmpty() && !closed) {
                    try {
                        waiting.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                key = waiting.keySet().iterator().next();
                task = waiting.remove(key);
                busyWith = key;
            }
            Runnable result;
            try {
                if (queue == null) {
                    queue = opener.get();
                }
                result = task.work().apply(queue);
            } catch (RuntimeException e) {
                result = task.onError().apply(e);
            }
            synchronized (waiting) {
                busyWith = null;
            }
            deliver.accept(result);
        }
    }

    /** Drops the waiting work and interrupts the running one: a pass stops at its next step and gives its lease back. */
    void stop() {
        synchronized (waiting) {
            closed = true;
            waiting.clear();
            waiting.notifyAll();
        }
        thread.interrupt();
    }

    /** Stops, and waits a moment for the thread to finish. The queue is the opener's to close. */
    @Override
    public void close() {
        stop();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "worker " + name;
    }
}
