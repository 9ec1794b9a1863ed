package nvidb.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import nvidb.core.api.Lease;
import nvidb.core.util.BootClock;
import nvidb.core.util.Hostname;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheduler lease, held by two clients on two connections to one file. */
class LeaseRepositoryTest {
    private static final String LEASE = "scheduler";
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    @TempDir
    Path tmp;
    Store a;
    Store b;

    @BeforeEach
    void open() {
        a = Store.open(tmp.resolve("queue.db"));
        b = Store.open(tmp.resolve("queue.db"));
        // These cases move time by the wall clock they pass in; the boot clock's own case sets one.
        a.leases.useBootClock(Optional::empty);
        b.leases.useBootClock(Optional::empty);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void acquiredByOneRefusedToAnotherUntilItExpires() {
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(0)));
        Lease held = b.leases.get(LEASE).orElseThrow();
        assertEquals("A", held.owner());
        assertEquals(at(0), held.acquiredAt());
        assertEquals(at(2), held.expiresAt());

        Optional<Lease> refused = b.leases.acquire(LEASE, "B", TTL, at(1));
        assertTrue(refused.isPresent(), "B must wait while A's lease runs");
        assertEquals("A", refused.get().owner());
        assertEquals(at(2), refused.get().expiresAt());
        assertEquals("A", a.leases.get(LEASE).orElseThrow().owner(), "a refusal changes nothing");

        assertEquals(Optional.empty(), b.leases.acquire(LEASE, "B", TTL, at(3)), "A crashed: its lease expired");
        assertEquals("B", a.leases.get(LEASE).orElseThrow().owner());
        assertEquals(at(5), a.leases.get(LEASE).orElseThrow().expiresAt());
        assertEquals("B", a.leases.acquire(LEASE, "A", TTL, at(4)).orElseThrow().owner());
    }

    @Test
    void theSameOwnerRenews() {
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(0)));
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(1)), "the holder renews while it holds");
        assertEquals(at(3), a.leases.get(LEASE).orElseThrow().expiresAt());
        // Without the renewal the lease would have run out at t+2.
        assertEquals("A", b.leases.acquire(LEASE, "B", TTL, at(2)).orElseThrow().owner());
        // A holder whose lease lapsed, and nobody took it meanwhile, simply takes it again.
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(10)));
        assertEquals(at(12), a.leases.get(LEASE).orElseThrow().expiresAt());
    }

    @Test
    void onlyTheOwnerReleases() {
        a.leases.acquire(LEASE, "A", TTL, at(0));
        b.leases.release(LEASE, "B");
        assertEquals("A", a.leases.get(LEASE).orElseThrow().owner(), "B cannot release A's lease");
        assertTrue(b.leases.acquire(LEASE, "B", TTL, at(1)).isPresent());

        a.leases.release(LEASE, "A");
        Lease free = b.leases.get(LEASE).orElseThrow();
        assertNull(free.owner());
        assertNull(free.expiresAt());
        assertEquals(Optional.empty(), b.leases.acquire(LEASE, "B", TTL, at(1)), "free at once after release");
        assertEquals("B", a.leases.get(LEASE).orElseThrow().owner());
    }

    @Test
    void leasesAreIndependentByName() {
        assertEquals(Optional.empty(), a.leases.acquire("scheduler", "A", TTL, at(0)));
        assertEquals(Optional.empty(), b.leases.acquire("lane-sync", "B", TTL, at(0)));
        assertEquals("A", b.leases.get("scheduler").orElseThrow().owner());
        assertEquals("B", a.leases.get("lane-sync").orElseThrow().owner());
        assertTrue(a.leases.get("nothing").isEmpty());
    }

    @Test
    void aLeaseOfAProcessThatDiedOnThisHostIsTakenOverAtOnce() throws Exception {
        Process gone = new ProcessBuilder("sh", "-c", "exit 0").start();
        gone.waitFor();
        String deadOwner = Hostname.get() + ":" + gone.pid() + ":killed";
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, deadOwner, Duration.ofMinutes(3), at(0)));

        assertEquals(Optional.empty(), b.leases.acquire(LEASE, "B", TTL, at(1)), "its holder is gone: no wait for the TTL");
        assertEquals("B", a.leases.get(LEASE).orElseThrow().owner());
    }

    @Test
    void aLiveHolderOnThisHostAndAnyHolderOnAnotherHostAreWaitedFor() throws Exception {
        Process gone = new ProcessBuilder("sh", "-c", "exit 0").start();
        gone.waitFor();
        String elsewhere = "another-host-" + Hostname.get() + ":" + gone.pid() + ":x";
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, elsewhere, Duration.ofMinutes(3), at(0)));
        assertEquals(elsewhere, b.leases.acquire(LEASE, "B", TTL, at(1)).orElseThrow().owner(),
                "a pid on another machine cannot be checked: wait for its expiry");
        assertEquals(Optional.empty(), b.leases.acquire(LEASE, "B", TTL, at(181)), "expired");

        String alive = LeaseRepository.newOwner();
        assertTrue(alive.startsWith(Hostname.get() + ":" + ProcessHandle.current().pid() + ":"), alive);
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, alive, Duration.ofMinutes(3), at(200)));
        assertEquals(alive, b.leases.acquire(LEASE, "B", TTL, at(201)).orElseThrow().owner(), "this process lives");
    }

    @Test
    void aClockThatWentBackAnHourDoesNotStallTheLeaseNorASmallSkewFreeIt() {
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(0)));
        // A second back: within any holder's lease, so still A's.
        assertTrue(b.leases.acquire(LEASE, "B", TTL, at(-1)).isPresent());
        // An hour back: A's lease would otherwise stand for an hour and two seconds more.
        assertEquals(Optional.empty(), b.leases.acquire(LEASE, "B", TTL, at(-3600)), "taken over, not waited for");
        assertEquals("B", a.leases.get(LEASE).orElseThrow().owner());
        // And an hour forward, the lease it just took has simply expired, as every lease does.
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(0)));
    }

    @Test
    void aHolderOnThisHostKeepsItsLeaseWhenTheClockGoesBack() {
        String here = Hostname.get() + ":" + ProcessHandle.current().pid() + ":x";
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, here, TTL, at(0)));
        assertTrue(b.leases.acquire(LEASE, "B", TTL, at(-3600)).isPresent(), "alive here: it renews by the new clock");
    }

    @Test
    void onTheBootClockAnHourForwardFreesNoLeaseAndItsTtlStillEndsIt() {
        long[] uptime = {1_000_000};
        Supplier<Optional<BootClock>> clock = () -> Optional.of(new BootClock("boot-1", uptime[0]));
        a.leases.useBootClock(clock);
        b.leases.useBootClock(clock);
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(0)));
        // The wall clock an hour forward, one second on the boot clock: A's lease still runs.
        uptime[0] += 1_000;
        assertEquals("A", b.leases.acquire(LEASE, "B", TTL, at(3600)).orElseThrow().owner(), "not freed by the jump");
        assertTrue(b.leases.liveHolder(LEASE, at(3600)).isPresent());
        // Its TTL (2 s) over on the boot clock, whatever the wall clock says: taken over.
        uptime[0] += 1_500;
        assertEquals(Optional.empty(), b.leases.acquire(LEASE, "B", TTL, at(1)), "expired on the boot clock");
        // A lease from another boot (the host rebooted) expires by the wall clock again.
        Supplier<Optional<BootClock>> rebooted = () -> Optional.of(new BootClock("boot-2", 5));
        a.leases.useBootClock(rebooted);
        assertEquals(Optional.empty(), a.leases.acquire(LEASE, "A", TTL, at(4)), "B's lease ran out at t+3 by the wall");
    }
}
