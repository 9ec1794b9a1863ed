package nvidb.core.backup;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Keeper;
import nvidb.core.api.Times;
import nvidb.core.config.NvidbPaths;
import nvidb.core.keeper.KeeperService;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.DaemonRegistry;
import nvidb.core.store.LeaseRepository;
import nvidb.core.store.Store;

/**
 * What keeps this queue moving without a client at the keyboard: a daemon, the keeper that
 * restarts it, a pass in progress. A restore refuses while any of them runs, because it would
 * change the database under a process that has just read it and is about to act on nodes (and a
 * keeper would start a daemon again at once).
 */
final class QueueActivity {
    private QueueActivity() {
    }

    /** A sentence naming what runs, or empty when nothing does. */
    static Optional<String> whatRuns(Store store, NvidbPaths paths, Map<String, String> env) {
        Instant now = Instant.now();
        Optional<String> daemon = new DaemonRegistry(store.db).live(now)
                .map(d -> "a queue daemon serves it (" + d.describe() + "; stop it with nvidb queue keeper stop,"
                        + " or end that process)");
        if (daemon.isPresent()) {
            return daemon;
        }
        Keeper.State keeper = new KeeperService(paths.home(), paths.database(), env, Optional::empty).state();
        if (keeper.up()) {
            return Optional.of("the " + keeper.kind() + " keeper runs" + (keeper.pid() == null ? "" : " (pid "
                    + keeper.pid() + ")") + " and would start a daemon again; stop it with nvidb queue keeper stop");
        }
        return store.db.read(() -> store.leases.liveHolder(Scheduler.LEASE, now))
                .map(l -> "the scheduler lease is held by " + LeaseRepository.describe(l.owner())
                        + " (a pass in progress) until " + Times.iso(l.expiresAt()));
    }
}
