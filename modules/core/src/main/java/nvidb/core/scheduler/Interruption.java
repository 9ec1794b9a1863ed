package nvidb.core.scheduler;

import nvidb.core.api.NvidbException;

/**
 * Ctrl-C or SIGTERM interrupts the thread running a pass (the CLI's shutdown hook does). Remote
 * calls then fail at once, and what they report is the interruption, not the node: a pass must
 * stop there, not mark nodes down or launches failed, and let its lease go on the way out.
 */
final class Interruption {
    private Interruption() {
    }

    /** Ends the pass when this thread was interrupted. */
    static void check() {
        if (Thread.currentThread().isInterrupted()) {
            throw NvidbException.interrupted();
        }
    }
}
