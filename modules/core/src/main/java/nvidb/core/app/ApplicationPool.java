package nvidb.core.app;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import nvidb.core.api.NvidbException;
import nvidb.core.api.QueueAccess;

/**
 * A server's few open queues, each with its application layer, for front ends that serve many
 * requests at once (the web, MCP): a request borrows one for as long as it works, and waits for
 * one when all are busy (SQLite serialises writers anyway, and readers are quick). One access is
 * never used by two threads at once.
 */
public final class ApplicationPool implements AutoCloseable {
    private record Open(QueueAccess access, Application app) {
    }

    private final Supplier<QueueAccess> opener;
    private final int size;
    private final BlockingQueue<Open> idle;
    private final AtomicInteger opened = new AtomicInteger();

    /**
     * @param opener opens another access to the served queue (the program that starts the server closes them all)
     * @param size   queues open at most
     */
    public ApplicationPool(Supplier<QueueAccess> opener, int size) {
        this.opener = opener;
        this.size = size;
        this.idle = new ArrayBlockingQueue<>(size);
    }

    /** Runs {@code work} with an application whose queue is this thread's alone while it runs. */
    public <T> T with(BiFunction<Application, QueueAccess, T> work) {
        Open open = borrow();
        try {
            return work.apply(open.app(), open.access());
        } finally {
            idle.add(open);
        }
    }

    private Open borrow() {
        Open free = idle.poll();
        if (free != null) {
            return free;
        }
        if (opened.getAndIncrement() < size) {
            try {
                QueueAccess access = opener.get();
                return new Open(access, new Application(access));
            } catch (RuntimeException e) {
                opened.decrementAndGet();
                throw e;
            }
        }
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw NvidbException.interrupted();
        }
    }

    @Override
    public void close() {
        // The accesses belong to the program that opened them (it closes them when it ends).
        idle.clear();
    }
}
