package nvidb.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import nvidb.core.api.Alert;
import nvidb.core.api.AlertKind;
import nvidb.core.api.SinkDelivery;
import nvidb.core.api.TickSummary;
import nvidb.core.store.LeaseRepository;
import nvidb.core.store.Store;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.DeliverySkippedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The delivery pass over a real SQLite file, with sinks that record what they are handed and a clock the test moves. */
class AlertDeliveryPassTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    private Store store;
    private final MovableClock clock = new MovableClock();

    /** A sink that records every alert handed to it and fails its first {@code failures} calls. */
    private static final class Recording implements AlertSink {
        final List<AlertMessage> calls = new CopyOnWriteArrayList<>();
        private final AtomicInteger failuresLeft;

        Recording(int failures) {
            failuresLeft = new AtomicInteger(failures);
        }

        @Override
        public void deliver(AlertMessage alert) throws IOException {
            calls.add(alert);
            if (failuresLeft.getAndDecrement() > 0) {
                throw new IOException("endpoint answered HTTP 503 (" + failuresLeft.get() + " left)");
            }
        }

        List<Long> ids() {
            return calls.stream().map(AlertMessage::id).toList();
        }
    }

    private static final class MovableClock extends Clock {
        private volatile Instant now = T0;

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("queue.db"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private long raise(AlertKind kind, String title) {
        return store.db.write(() -> store.alerts.raise(T0, kind, 7L, "box", title, "stderr tail"));
    }

    private AlertDeliveryPass pass(String minSeverity, Map<String, AlertSink> sinks) {
        List<ConfiguredSinks.Named> named = sinks.entrySet().stream()
                .map(e -> new ConfiguredSinks.Named(e.getKey(), e.getValue())).toList();
        return new AlertDeliveryPass(store, () -> named, minSeverity, clock, Duration.ofSeconds(5));
    }

    private TickSummary run(AlertDeliveryPass pass) {
        return run(pass, AlertDeliveryPass.FULL_BUDGET);
    }

    private TickSummary run(AlertDeliveryPass pass, Duration budget) {
        TickSummary.Builder summary = new TickSummary.Builder();
        pass.run(summary, () -> budget);
        return summary.build();
    }

    private Alert alert(long id) {
        return store.db.read(() -> store.alerts.find(id)).orElseThrow();
    }

    private Map<String, SinkDelivery> bySink(long id) {
        return alert(id).deliveries().stream().collect(Collectors.toMap(SinkDelivery::sink, d -> d));
    }

    @Test
    void aFailingSinkIsRetriedAfterTheBackoffUntilItTakesTheAlertOnce() {
        long id = raise(AlertKind.JOB_FAILED, "train failed with exit code 1");
        Recording log = new Recording(0);
        Recording hook = new Recording(2);
        AlertDeliveryPass pass = pass("warning", new java.util.LinkedHashMap<>(Map.of("log", log, "webhook", hook)));

        TickSummary first = run(pass);
        assertEquals(List.of(new TickSummary.Delivery(id, "log", "delivered", null),
                new TickSummary.Delivery(id, "webhook", "failed", "endpoint answered HTTP 503 (1 left)")),
                first.deliveries().stream().sorted(java.util.Comparator.comparing(TickSummary.Delivery::sink)).toList());
        SinkDelivery failed = bySink(id).get("webhook");
        assertEquals("retrying", failed.state());
        assertEquals(1, failed.attempts());
        assertEquals(T0.plusSeconds(30), failed.nextTryAt());
        assertEquals("endpoint answered HTTP 503 (1 left)", failed.lastError());
        assertNull(alert(id).notifiedAt(), "not every sink has it yet");

        run(pass);
        clock.advance(Duration.ofSeconds(29));
        run(pass);
        assertEquals(1, hook.calls.size(), "not before next_try_at");

        clock.advance(Duration.ofSeconds(1));
        run(pass);
        assertEquals(2, hook.calls.size());
        assertEquals(2, bySink(id).get("webhook").attempts());
        assertEquals(clock.instant().plusSeconds(60), bySink(id).get("webhook").nextTryAt(), "the wait doubled");

        clock.advance(Duration.ofSeconds(60));
        run(pass);
        SinkDelivery delivered = bySink(id).get("webhook");
        assertEquals("delivered", delivered.state());
        assertEquals(3, delivered.attempts());
        assertNull(delivered.lastError());
        assertNull(delivered.nextTryAt());
        assertEquals(clock.instant(), alert(id).notifiedAt(), "every sink has it now");

        clock.advance(Duration.ofHours(2));
        assertTrue(run(pass).deliveries().isEmpty(), "a settled alert is never handed out again");
        assertEquals(List.of(id), log.ids(), "the log had it once, although the webhook took three tries");
        assertEquals(List.of(id, id, id), hook.ids());
        assertTrue(hook.calls.getFirst().json().startsWith("{\"id\":" + id + ","), hook.calls.getFirst().json());
    }

    @Test
    void minSeverityFiltersWhatIsSentNotWhatIsRecorded() {
        long warning = raise(AlertKind.JOB_HELD, "held: dependency 3 failed");
        long error = raise(AlertKind.JOB_LOST, "lost");
        Recording log = new Recording(0);
        run(pass("error", Map.of("log", log)));
        assertEquals(List.of(error), log.ids());
        Alert held = alert(warning);
        assertNotNull(held.notifiedAt(), "nothing is due, so its delivery is settled at once");
        assertTrue(held.deliveries().isEmpty());
        assertTrue(held.open(), "still an open alert in the queue");
        assertEquals("delivered", bySink(error).get("log").state());

        run(pass("warning", Map.of("log", log)));
        assertEquals(List.of(error), log.ids(), "a settled alert is not sent when min_severity is lowered later");
    }

    @Test
    void withNoSinkEveryAlertIsSettledAtOnceWithNothingSent() {
        long id = raise(AlertKind.NODE_DOWN, "box is unreachable");
        run(pass("warning", Map.of()));
        assertNotNull(alert(id).notifiedAt());
        assertFalse(store.db.read(store.deliveries::anyUnsettled));
    }

    @Test
    void aSinkThatCannotRunHereSkipsWithoutRetryAndIsReportedOnce() {
        long a = raise(AlertKind.JOB_FAILED, "a");
        long b = raise(AlertKind.JOB_FAILED, "b");
        AtomicInteger calls = new AtomicInteger();
        AlertSink desktop = alert -> {
            calls.incrementAndGet();
            throw new DeliverySkippedException("notify-send is not on PATH, so desktop notifications are skipped");
        };
        TickSummary first = run(pass("warning", Map.of("desktop-test-once", desktop)));
        assertEquals(List.of(new TickSummary.Delivery(a, "desktop-test-once", "skipped",
                "notify-send is not on PATH, so desktop notifications are skipped")), first.deliveries());
        for (long id : List.of(a, b)) {
            SinkDelivery d = bySink(id).get("desktop-test-once");
            assertEquals("skipped", d.state());
            assertEquals(T0, d.skippedAt());
            assertNull(d.nextTryAt());
            assertNotNull(alert(id).notifiedAt(), "a skip settles the alert for that sink");
        }
        clock.advance(Duration.ofHours(3));
        run(pass("warning", Map.of("desktop-test-once", desktop)));
        assertEquals(2, calls.get(), "never retried");
    }

    @Test
    void aFailedSinkIsNotCalledAgainInTheSamePassAndOthersStillDeliver() {
        long a = raise(AlertKind.JOB_FAILED, "a");
        long b = raise(AlertKind.JOB_FAILED, "b");
        Recording down = new Recording(100);
        Recording log = new Recording(0);
        run(pass("warning", new java.util.LinkedHashMap<>(Map.of("down", down, "log", log))));
        assertEquals(List.of(a), down.ids(), "one failure per pass for a sink that is down");
        assertEquals(List.of(a, b), log.ids());
        assertNull(bySink(b).get("down"), "b was not tried on the sink that is down: no attempt recorded");
    }

    @Test
    void aPassCallsSinksForAtMostFiftyAlerts() {
        for (int i = 0; i < 60; i++) {
            raise(AlertKind.JOB_FAILED, "job " + i);
        }
        Recording log = new Recording(0);
        AlertDeliveryPass pass = pass("warning", Map.of("log", log));
        run(pass);
        assertEquals(AlertDeliveryPass.MAX_ALERTS_PER_PASS, log.calls.size());
        run(pass);
        assertEquals(60, log.calls.size());
        assertEquals(60, log.ids().stream().distinct().count());
    }

    @Test
    void whileAnotherLiveProcessHoldsTheDeliveryLeaseNothingIsSent() {
        raise(AlertKind.JOB_FAILED, "a");
        String other = LeaseRepository.newOwner(); // this very (live) process, another holder
        assertTrue(store.leases.acquire(AlertDeliveryPass.LEASE, other, Duration.ofMinutes(2), Instant.now()).isEmpty());
        Recording log = new Recording(0);
        run(pass("warning", Map.of("log", log)));
        assertTrue(log.calls.isEmpty());
        store.leases.release(AlertDeliveryPass.LEASE, other);
        run(pass("warning", Map.of("log", log)));
        assertEquals(1, log.calls.size());
        assertNull(store.leases.get(AlertDeliveryPass.LEASE).orElseThrow().owner(), "given back after the pass");
    }

    @Test
    void aSinkThatHangsIsInterruptedAtTheCapAndRecordedAsFailed() throws Exception {
        long id = raise(AlertKind.JOB_TIMEOUT, "ran too long");
        CountDownLatch interrupted = new CountDownLatch(1);
        AlertSink hangs = alert -> {
            try {
                Thread.sleep(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        };
        List<ConfiguredSinks.Named> sinks = List.of(new ConfiguredSinks.Named("hook", hangs));
        run(new AlertDeliveryPass(store, () -> sinks, "warning", clock, Duration.ofMillis(300)));
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the abandoned call was interrupted");
        SinkDelivery d = bySink(id).get("hook");
        assertEquals("retrying", d.state());
        assertEquals("the hook sink did not finish within 0.3 s and was interrupted", d.lastError());
    }

    @Test
    void aShortBudgetCutsAHangingSinkShortAndTheNextPassTriesAgain() throws Exception {
        long id = raise(AlertKind.JOB_FAILED, "boom");
        long other = raise(AlertKind.JOB_FAILED, "boom again");
        CountDownLatch interrupted = new CountDownLatch(1);
        AlertSink hangs = alert -> {
            try {
                Thread.sleep(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        };
        List<ConfiguredSinks.Named> sinks = List.of(new ConfiguredSinks.Named("hook", hangs));
        AlertDeliveryPass pass = new AlertDeliveryPass(store, () -> sinks, "warning", clock, Duration.ofSeconds(5));
        long started = System.nanoTime();
        TickSummary t = run(pass, Duration.ofMillis(400));
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms < 2_000, "the budget, not the 5 s call cap, bounds the pass: " + ms + " ms");
        assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the abandoned call was interrupted");
        assertEquals(1, t.deliveries().size(), "the sink is not called again in the same pass: " + t);
        assertEquals(0, t.notified());
        SinkDelivery d = bySink(id).get("hook");
        assertEquals("retrying", d.state());
        assertEquals("the hook sink had not finished when this pass's 0.4 s for alert sinks ran out; it was"
                + " interrupted and is tried again later", d.lastError());
        assertNull(bySink(other).get("hook"), "the second alert waits for a later pass, untried");

        AlertSink answers = alert -> { };
        clock.advance(DeliveryBackoff.FIRST.plusSeconds(1));
        AlertDeliveryPass later = new AlertDeliveryPass(store, () -> List.of(new ConfiguredSinks.Named("hook", answers)),
                "warning", clock, Duration.ofSeconds(5));
        TickSummary next = run(later, Duration.ofMillis(400));
        assertEquals(2, next.notified(), "both delivered once the sink answers: " + next);
        assertEquals("delivered", bySink(id).get("hook").state());
    }

    @Test
    void aZeroAllowanceLeavesEveryAlertToAnotherProcess() {
        long id = raise(AlertKind.JOB_FAILED, "a");
        Recording log = new Recording(0);
        TickSummary t = run(pass("warning", Map.of("log", log)), Duration.ZERO);
        assertEquals(0, log.calls.size());
        assertTrue(t.deliveries().isEmpty());
        assertNull(alert(id).notifiedAt());
        assertTrue(store.leases.get(AlertDeliveryPass.LEASE).isEmpty(), "not even the lease is taken");
    }

    @Test
    void aSinkThatThrowsWithoutAMessageStillSaysWhat() {
        long id = raise(AlertKind.JOB_FAILED, "a");
        AlertSink broken = alert -> {
            throw new IllegalStateException();
        };
        run(pass("warning", Map.of("site", broken)));
        assertEquals("java.lang.IllegalStateException", bySink(id).get("site").lastError());
    }

    @Test
    void thePayloadIsTheAlertAsQueueAlertsPrintsItOnOneLine() {
        long id = raise(AlertKind.JOB_FAILED, "say \"hi\"\nsecond line");
        Recording log = new Recording(0);
        run(pass("warning", Map.of("log", log)));
        AlertMessage m = log.calls.getFirst();
        assertEquals("{\"id\":" + id + ",\"ts\":\"2026-03-01T10:00:00+00:00\",\"kind\":\"job_failed\",\"severity\":\"error\","
                + "\"job_id\":7,\"node\":\"box\",\"title\":\"say \\\"hi\\\"\\nsecond line\",\"detail\":\"stderr tail\","
                + "\"acknowledged_at\":null,\"notified_at\":null}", m.json());
        assertEquals(id, m.id());
        assertEquals("job_failed", m.kind());
        assertEquals(7L, m.jobId());
    }
}
