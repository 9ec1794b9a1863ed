package nvidb.core.store;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import nvidb.core.api.Lease;
import nvidb.core.api.NvidbException;

/**
 * Named leases in the {@code locks} table. A lease held by another owner and not yet expired is
 * refused; the same owner renews. A crashed holder blocks others at most until its expiry, and not
 * at all when it ran on this machine: its owner names host and pid (see {@link LeaseHolder}), and a
 * holder whose process is gone is taken over at once.
 */
public final class LeaseRepository {
    /** How far apart two hosts' clocks may be (NTP keeps them to milliseconds) before a lease's start reads as a jump. */
    static final Duration CLOCK_SLACK = Duration.ofMinutes(5);

    private static final String GET = "SELECT * FROM locks WHERE name = ?";
    private static final String UPSERT = """
            INSERT INTO locks (name, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, acquired_at = excluded.acquired_at,
                                            expires_at = excluded.expires_at
            """;
    private static final String RENEW = "UPDATE locks SET expires_at = ? WHERE name = ? AND owner = ?";
    private static final String RELEASE =
            "UPDATE locks SET owner = NULL, expires_at = NULL WHERE name = ? AND owner = ?";

    /** Leases this process holds, by database file: what {@link #releaseAllHeld} gives back. */
    private static final Set<Held> HELD = ConcurrentHashMap.newKeySet();
    private static volatile boolean closing;

    /**
     * Written out, not left to the record: a record's own equals and hashCode are bootstrapped
     * through method handles at their first call, which spins a dozen classes at run time (the AOT
     * cache cannot hold them), ~3 ms of every command that takes the scheduler lease.
     */
    private record Held(Path database, String name, String owner) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Held h && database.equals(h.database) && name.equals(h.name) && owner.equals(h.owner);
        }

        @Override
        public int hashCode() {
            return (database.hashCode() * 31 + name.hashCode()) * 31 + owner.hashCode();
        }
    }

    private final Database db;

    public LeaseRepository(Database db) {
        this.db = db;
    }

    /** A new owner for a lease taken by this process: it names this host and pid. */
    public static String newOwner() {
        return LeaseHolder.ownerForThisProcess();
    }

    public Optional<Lease> get(String name) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(GET)) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Lease(rs.getString("name"), rs.getString("owner"),
                            Rows.instant(rs, "acquired_at"), Rows.instant(rs, "expires_at")));
                }
            }
        });
    }

    /**
     * Takes or renews the lease in one immediate transaction.
     *
     * @return empty when acquired, else the lease that stands in the way
     */
    public Optional<Lease> acquire(String name, String owner, Duration ttl, Instant now) {
        if (closing) {
            throw NvidbException.interrupted(); // this process is ending: it takes nothing new
        }
        return db.write(() -> Rows.sql(() -> {
            Optional<Lease> current = get(name);
            if (current.isPresent() && !owner.equals(current.get().owner()) && standing(current.get(), now)
                    && !takenBeforeClockWentBack(current.get(), now)) {
                return current;
            }
            try (PreparedStatement ps = db.connection().prepareStatement(UPSERT)) {
                Rows.bind(ps, name, owner, now, now.plus(ttl));
                ps.executeUpdate();
            }
            HELD.add(new Held(db.path(), name, owner));
            return Optional.<Lease>empty();
        }));
    }

    /** The lease, while a holder that may still be alive holds it (what {@link #acquire} would refuse). */
    public Optional<Lease> liveHolder(String name, Instant now) {
        return get(name).filter(l -> standing(l, now));
    }

    /**
     * The one takeover rule: a lease stands (blocks everyone but its owner) while it has an owner,
     * has not expired, and its holder is not known to be dead on this host.
     */
    public static boolean standing(Lease l, Instant now) {
        return l.owner() != null && l.expiresAt() != null && l.expiresAt().isAfter(now)
                && !LeaseHolder.of(l.owner()).map(LeaseHolder::goneFromThisHost).orElse(false);
    }

    /**
     * A lease taken "in the future" — more than {@link #CLOCK_SLACK} after now — was taken under
     * a clock that has since gone back: waiting for its expiry would stop every pass for as long
     * as the clock went back (an hour, say), while its holder, if alive, renews by the new clock
     * and learns from the renewal that it was taken over. A holder on this host is left alone: it
     * is either alive and renewing, or gone and not standing at all.
     */
    static boolean takenBeforeClockWentBack(Lease l, Instant now) {
        return l.acquiredAt() != null && l.acquiredAt().isAfter(now.plus(CLOCK_SLACK))
                && !LeaseHolder.of(l.owner()).map(h -> h.host().equals(nvidb.core.util.Hostname.get())).orElse(false);
    }

    /** Who an owner string names, for a person: {@code process 812 on box406}, else the string itself. */
    public static String describe(String owner) {
        return LeaseHolder.of(owner).map(h -> "process " + h.pid() + " on " + h.host()).orElse(owner);
    }

    /** Extends a lease its owner still holds; false when it is no longer theirs (expired and taken over). */
    public boolean renew(String name, String owner, Duration ttl, Instant now) {
        return db.write(() -> Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(RENEW)) {
                Rows.bind(ps, now.plus(ttl), name, owner);
                return ps.executeUpdate() == 1;
            }
        }));
    }

    public void release(String name, String owner) {
        db.write(() -> Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(RELEASE)) {
                Rows.bind(ps, name, owner);
                return ps.executeUpdate();
            }
        }));
        HELD.remove(new Held(db.path(), name, owner));
    }

    /**
     * Releases every lease this process still holds, each on a connection of its own (the
     * {@link Database} of the thread that took it is not shared), and refuses new ones after.
     * Best effort: a lease that cannot be released here still expires, and is taken over at once
     * by a client on this host once this process is gone.
     */
    public static void releaseAllHeld() {
        closing = true;
        for (Held h : List.copyOf(HELD)) {
            try (Database own = Database.open(h.database())) {
                new LeaseRepository(own).release(h.name(), h.owner());
            } catch (RuntimeException e) {
                // see above: expiry or the dead-pid rule frees it
            }
        }
    }
}
