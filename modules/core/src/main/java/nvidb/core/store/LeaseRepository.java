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
import java.util.function.Supplier;
import nvidb.core.api.Lease;
import nvidb.core.api.NvidbException;
import nvidb.core.util.BootClock;

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
            INSERT INTO locks (name, owner, acquired_at, expires_at, expires_boot_id, expires_uptime_ms)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, acquired_at = excluded.acquired_at,
                                            expires_at = excluded.expires_at, expires_boot_id = excluded.expires_boot_id,
                                            expires_uptime_ms = excluded.expires_uptime_ms
            """;
    private static final String RENEW = """
            UPDATE locks SET expires_at = ?, expires_boot_id = ?, expires_uptime_ms = ? WHERE name = ? AND owner = ?
            """;
    private static final String RELEASE = """
            UPDATE locks SET owner = NULL, expires_at = NULL, expires_boot_id = NULL, expires_uptime_ms = NULL
            WHERE name = ? AND owner = ?
            """;

    /** Leases this process holds, by database file: what {@link #releaseAllHeld} gives back. */
    private static final Set<Held> HELD = ConcurrentHashMap.newKeySet();
    private static volatile boolean closing;

    /**
     * Written out, not left to the record: a record's own equals and hashCode are bootstrapped
     * through method handles at their first call, which spins a dozen classes at run time (the AOT
     * cache cannot hold them) in every command that takes the scheduler lease (a rule:
     * StartupRules.RECORDS_KEPT_AS_HASH_KEYS_WRITE_EQUALS_AND_HASH_CODE).
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
    /** This host's boot clock; tests that move time by hand put in their own. */
    private Supplier<Optional<BootClock>> bootClock = BootClock::now;

    public LeaseRepository(Database db) {
        this.db = db;
    }

    void useBootClock(Supplier<Optional<BootClock>> clock) {
        this.bootClock = clock;
    }

    /** A new owner for a lease taken by this process: it names this host and pid. */
    public static String newOwner() {
        return LeaseHolder.ownerForThisProcess();
    }

    public Optional<Lease> get(String name) {
        return row(name).map(Row::lease);
    }

    /** A lease as stored, with its expiry on the boot clock of the host that took it (null: none). */
    private record Row(Lease lease, BootClock expiresOnBoot) {
    }

    private Optional<Row> row(String name) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(GET)) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    Lease lease = new Lease(rs.getString("name"), rs.getString("owner"),
                            Rows.instant(rs, "acquired_at"), Rows.instant(rs, "expires_at"));
                    String boot = rs.getString("expires_boot_id");
                    Long uptime = Rows.longOrNull(rs, "expires_uptime_ms");
                    return Optional.of(new Row(lease, boot == null || uptime == null ? null : new BootClock(boot, uptime)));
                }
            }
        });
    }

    /** The expiry {@code ttl} from now on this host's boot clock, or null where it has none. */
    private BootClock bootExpiry(Duration ttl) {
        return bootClock.get().map(c -> new BootClock(c.bootId(), c.uptimeMs() + ttl.toMillis())).orElse(null);
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
            Optional<Row> current = row(name);
            if (current.isPresent() && !owner.equals(current.get().lease().owner()) && standing(current.get(), now)
                    && !takenBeforeClockWentBack(current.get().lease(), now)) {
                return current.map(Row::lease);
            }
            BootClock expiry = bootExpiry(ttl);
            try (PreparedStatement ps = db.connection().prepareStatement(UPSERT)) {
                Rows.bind(ps, name, owner, now, now.plus(ttl), expiry == null ? null : expiry.bootId(),
                        expiry == null ? null : expiry.uptimeMs());
                ps.executeUpdate();
            }
            HELD.add(new Held(db.path(), name, owner));
            return Optional.<Lease>empty();
        }));
    }

    /** The lease, while a holder that may still be alive holds it (what {@link #acquire} would refuse). */
    public Optional<Lease> liveHolder(String name, Instant now) {
        return row(name).filter(r -> standing(r, now)).map(Row::lease);
    }

    /**
     * The one takeover rule: a lease stands (blocks everyone but its owner) while it has an owner,
     * has not expired, and its holder is not known to be dead on this host. Expired is read on the
     * boot clock when the lease was taken in this boot of this host (a wall clock set an hour
     * forward must not free a lease its holder is still renewing), else on the wall clock.
     */
    private boolean standing(Row r, Instant now) {
        Lease l = r.lease();
        return l.owner() != null && l.expiresAt() != null && !expired(r, now)
                && !LeaseHolder.of(l.owner()).map(LeaseHolder::goneFromThisHost).orElse(false);
    }

    private boolean expired(Row r, Instant now) {
        Optional<BootClock> clock = r.expiresOnBoot() == null ? Optional.empty() : bootClock.get();
        if (clock.isPresent() && clock.get().bootId().equals(r.expiresOnBoot().bootId())) {
            return clock.get().uptimeMs() >= r.expiresOnBoot().uptimeMs();
        }
        return !r.lease().expiresAt().isAfter(now);
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
            BootClock expiry = bootExpiry(ttl);
            try (PreparedStatement ps = db.connection().prepareStatement(RENEW)) {
                Rows.bind(ps, now.plus(ttl), expiry == null ? null : expiry.bootId(),
                        expiry == null ? null : expiry.uptimeMs(), name, owner);
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
