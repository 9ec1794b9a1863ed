package nvidb.core.operation;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import nvidb.core.api.Lease;
import nvidb.core.api.NvidbException;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.Store;
import nvidb.core.util.Nonce;

/**
 * The scheduler lease taken for a user operation, so that the operation never interleaves with a
 * pass. A pass in progress is waited for briefly; a lease still held after that is a conflict.
 */
public final class OperationLease {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Store store;
    private final Scheduler scheduler;

    public OperationLease(Store store, Scheduler scheduler) {
        this.store = store;
        this.scheduler = scheduler;
    }

    public <T> T run(String operation, Supplier<T> work) {
        String owner = scheduler.owner() + ":" + operation + ":" + Nonce.hex(8);
        Instant deadline = Instant.now().plus(WAIT);
        while (true) {
            Optional<Lease> blocker = store.leases.acquire(Scheduler.LEASE, owner, scheduler.leaseTtl(), Instant.now());
            if (blocker.isEmpty()) {
                break;
            }
            if (Instant.now().isAfter(deadline)) {
                throw NvidbException.conflict("scheduler is busy (held by " + blocker.get().owner()
                        + "); retry after the current tick finishes");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw NvidbException.interrupted();
            }
        }
        try {
            return work.get();
        } finally {
            store.leases.release(Scheduler.LEASE, owner);
        }
    }
}
