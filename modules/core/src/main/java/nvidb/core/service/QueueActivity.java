package nvidb.core.service;

import java.time.Instant;
import java.util.Optional;
import nvidb.core.api.Times;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.LeaseRepository;
import nvidb.core.store.Store;

/**
 * What keeps this queue moving without a client at the keyboard: a daemon, the keeper that
 * restarts it, a pass in progress. A restore refuses while any of them runs, because it would
 * change the database under a process that has just read it and is about to act on nodes.
 * Today the sign is the scheduler lease held by a process that may be alive; the daemon and the
 * keeper add theirs here (a pid file, a lease of their own), so that every caller asks one place.
 */
final class QueueActivity {
    private QueueActivity() {
    }

    /** A sentence naming what runs, or empty when nothing does. */
    static Optional<String> whatRuns(Store store) {
        return schedulerLeaseHolder(store);
    }

    private static Optional<String> schedulerLeaseHolder(Store store) {
        return store.db.read(() -> store.leases.liveHolder(Scheduler.LEASE, Instant.now()))
                .map(l -> "the scheduler lease is held by " + LeaseRepository.describe(l.owner())
                        + " (a queue daemon, or a pass in progress) until " + Times.iso(l.expiresAt()));
    }
}
