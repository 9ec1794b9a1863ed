package nvidb.core.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Lease;
import nvidb.core.api.Times;

/**
 * Which process is the queue daemon of this database: the {@code daemon} row of the leases table,
 * so registering, renewing and taking over follow the scheduler lease's rules exactly (a holder on
 * this host whose process is gone is taken over at once, one elsewhere when its lease expires).
 * The daemon renews it after every pass; {@code daemon_last_pass_at} in meta says when that was.
 */
public final class DaemonRegistry {
    public static final String LEASE = "daemon";
    static final String LAST_PASS = "daemon_last_pass_at";

    private final Database db;
    private final LeaseRepository leases;
    private final MetaRepository meta;

    public DaemonRegistry(Database db) {
        this.db = db;
        this.leases = new LeaseRepository(db);
        this.meta = new MetaRepository(db);
    }

    /** Its lease's boot clock, for tests that move time by hand. */
    void useBootClock(java.util.function.Supplier<java.util.Optional<nvidb.core.util.BootClock>> clock) {
        leases.useBootClock(clock);
    }

    /**
     * The daemon serving this database, if one does: the one rule every command asks ("is a
     * daemon up, so that it makes the pass I would make?").
     */
    public Optional<DaemonInfo> live(Instant now) {
        return db.read(() -> leases.liveHolder(LEASE, now).map(this::info));
    }

    /** Registers {@code owner} as the daemon; empty when it now is, else the daemon in the way. */
    public Optional<DaemonInfo> register(String owner, Duration ttl, Instant now) {
        return leases.acquire(LEASE, owner, ttl, now).map(this::info);
    }

    /**
     * Extends the registration of the daemon {@code owner} after an attempt at a pass, and
     * records the pass when one {@code ran}, in one write.
     *
     * @return false when it is no longer registered (its lease expired and another took over)
     */
    public boolean passed(String owner, Duration ttl, Instant now, boolean ran) {
        return db.write(() -> {
            boolean mine = leases.renew(LEASE, owner, ttl, now);
            if (mine && ran) {
                meta.put(LAST_PASS, Times.iso(now));
            }
            return mine;
        });
    }

    public void release(String owner) {
        leases.release(LEASE, owner);
    }

    private DaemonInfo info(Lease l) {
        LeaseHolder holder = LeaseHolder.of(l.owner()).orElse(new LeaseHolder(l.owner(), 0));
        Instant last = meta.get(LAST_PASS).map(Times::parse).orElse(null);
        boolean ours = last != null && l.acquiredAt() != null && !last.isBefore(l.acquiredAt());
        return new DaemonInfo(holder.host(), holder.pid(), l.acquiredAt(), ours ? last : null);
    }
}
