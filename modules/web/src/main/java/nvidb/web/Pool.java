package nvidb.web;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.api.QueueAccess;
import nvidb.core.app.Application;

/**
 * The server's few open queues, each with its application layer: a request borrows one for as
 * long as it works, and waits for one when all are busy (SQLite serialises writers anyway, and
 * readers are quick). Every operation is asked as the web: this process's OS account, its
 * submitter label, front end {@code web}.
 */
final class Pool implements AutoCloseable {
    /** Queues open at most. */
    static final int QUEUES = 4;

    private record Open(QueueAccess access, Application app, Caller caller) {
    }

    private final Supplier<QueueAccess> opener;
    private final BlockingQueue<Open> idle = new ArrayBlockingQueue<>(QUEUES);
    private final AtomicInteger opened = new AtomicInteger();

    /** @param opener opens another access to the served queue (the program that starts the server closes them all) */
    Pool(Supplier<QueueAccess> opener) {
        this.opener = opener;
    }

    /** Runs {@code work} with an application whose queue is this thread's alone while it runs. */
    <T> T with(BiFunction<Application, Caller, T> work) {
        Open open = borrow();
        try {
            return work.apply(open.app(), open.caller());
        } finally {
            idle.add(open);
        }
    }

    private Open borrow() {
        Open free = idle.poll();
        if (free != null) {
            return free;
        }
        if (opened.getAndIncrement() < QUEUES) {
            try {
                QueueAccess access = opener.get();
                return new Open(access, new Application(access), Caller.of(Caller.FrontEnd.WEB, access.submitter()));
            } catch (NvidbException e) {
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
