package nvidb.web;

import java.util.function.BiFunction;
import java.util.function.Supplier;
import nvidb.core.api.Caller;
import nvidb.core.api.QueueAccess;
import nvidb.core.app.Application;
import nvidb.core.app.ApplicationPool;

/**
 * The server's few open queues ({@link ApplicationPool}): every operation of a web route is asked
 * as the web, front end {@code web}, with this process's submitter label, for the request's user:
 * the user of its per-user token ({@link #USER}, bound by the guard), else this process's OS account.
 */
final class Pool implements AutoCloseable {
    /** Queues open at most. */
    static final int QUEUES = 4;

    /** The user of the per-user token the request being served carries; unbound: this process's account. */
    static final ScopedValue<String> USER = ScopedValue.newInstance();

    private final ApplicationPool pool;

    /** @param opener opens another access to the served queue (the program that starts the server closes them all) */
    Pool(Supplier<QueueAccess> opener) {
        this.pool = new ApplicationPool(opener, QUEUES);
    }

    /** Runs {@code work} with an application whose queue is this thread's alone while it runs. */
    <T> T with(BiFunction<Application, Caller, T> work) {
        return pool.with((app, access) -> work.apply(app, USER.isBound()
                ? new Caller(USER.get(), access.submitter(), Caller.FrontEnd.WEB)
                : Caller.of(Caller.FrontEnd.WEB, access.submitter())));
    }

    @Override
    public void close() {
        pool.close();
    }
}
