package nvidb.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import nvidb.core.api.DaemonInfo;
import nvidb.core.util.Hostname;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's registration, seen from two connections to one file (two processes, in effect). */
class DaemonRegistryTest {
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    @TempDir
    Path tmp;
    Store a;
    Store b;
    DaemonRegistry ra;
    DaemonRegistry rb;

    @BeforeEach
    void open() {
        a = Store.open(tmp.resolve("queue.db"));
        b = Store.open(tmp.resolve("queue.db"));
        ra = new DaemonRegistry(a.db);
        rb = new DaemonRegistry(b.db);
        // These cases move time by the wall clock they pass in (LeaseRepositoryTest covers the boot clock).
        ra.useBootClock(Optional::empty);
        rb.useBootClock(Optional::empty);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    /** An owner naming this host and this (live) process. */
    private static String live(String tag) {
        return Hostname.get() + ":" + ProcessHandle.current().pid() + ":" + tag;
    }

    @Test
    void aRegisteredDaemonIsSeenByOthersAndASecondOneIsRefusedWithItsPid() {
        assertTrue(rb.live(T0).isEmpty(), "nothing registered yet");
        assertEquals(Optional.empty(), ra.register(live("first"), TTL, T0));
        DaemonInfo seen = rb.live(T0.plusSeconds(1)).orElseThrow();
        assertEquals(ProcessHandle.current().pid(), seen.pid());
        assertEquals(Hostname.get(), seen.host());
        assertEquals(T0, seen.startedAt());
        assertNull(seen.lastPassAt(), "no pass yet");

        Optional<DaemonInfo> refused = rb.register(live("second"), TTL, T0.plusSeconds(2));
        assertTrue(refused.isPresent(), "one daemon per database");
        assertEquals(ProcessHandle.current().pid(), refused.get().pid());
    }

    @Test
    void aPassRenewsTheRegistrationAndRecordsItsTimeOnlyWhenItRan() {
        String owner = live("d");
        ra.register(owner, TTL, T0);
        assertTrue(ra.passed(owner, TTL, T0.plusSeconds(5), false));
        assertNull(rb.live(T0.plusSeconds(6)).orElseThrow().lastPassAt(), "a skipped pass is not a pass");
        assertTrue(ra.passed(owner, TTL, T0.plusSeconds(50), true));
        assertEquals(T0.plusSeconds(50), rb.live(T0.plusSeconds(51)).orElseThrow().lastPassAt());
        assertTrue(rb.live(T0.plusSeconds(100)).isPresent(), "renewed at +50 for 60 s");
        assertTrue(rb.live(T0.plusSeconds(111)).isEmpty(), "expired without a renewal");
    }

    @Test
    void aDaemonWhoseProcessIsGoneFromThisHostIsTakenOverAtOnce() {
        long dead = ProcessHandle.current().pid() + 4_000_000; // beyond any pid_max
        ra.register(Hostname.get() + ":" + dead + ":killed", TTL, T0);
        assertTrue(rb.live(T0.plusSeconds(1)).isEmpty(), "SIGKILLed: not live although its lease runs");
        assertEquals(Optional.empty(), rb.register(live("next"), TTL, T0.plusSeconds(1)));
        assertEquals(ProcessHandle.current().pid(), ra.live(T0.plusSeconds(2)).orElseThrow().pid());
    }

    @Test
    void aDaemonOnAnotherHostBlocksUntilItsLeaseExpiresAndThenLosesItsRegistration() {
        String elsewhere = "some-other-host:1234:x";
        ra.register(elsewhere, TTL, T0);
        assertEquals(1234, rb.register(live("here"), TTL, T0.plusSeconds(59)).orElseThrow().pid(),
                "its pid cannot be checked from here: it is waited for");
        assertEquals(Optional.empty(), rb.register(live("here"), TTL, T0.plusSeconds(61)));
        assertFalse(ra.passed(elsewhere, TTL, T0.plusSeconds(62), true), "the frozen one learns it was replaced");
    }

    @Test
    void releaseLeavesNoDaemonAndAFreshOneRegisters() {
        String owner = live("d");
        ra.register(owner, TTL, T0);
        ra.release(owner);
        assertTrue(rb.live(T0).isEmpty());
        String next = live("e");
        assertEquals(Optional.empty(), rb.register(next, TTL, T0.plusSeconds(1)));
        assertNotEquals(null, ra.live(T0.plusSeconds(1)).orElse(null));
    }

    @Test
    void anotherConnectionsCommitChangesTheDataVersionAndOurOwnDoNot() {
        long before = a.db.dataVersion();
        ra.register(live("d"), TTL, T0);
        assertEquals(before, a.db.dataVersion(), "a's own write: a does not wake itself");
        long bBefore = b.db.dataVersion();
        b.db.write(() -> {
            b.meta.put("k", "v");
            return null;
        });
        assertNotEquals(before, a.db.dataVersion(), "b committed: a sees it");
        assertEquals(bBefore, b.db.dataVersion());
    }
}
