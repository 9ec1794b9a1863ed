package nvidb.core.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import nvidb.core.api.Alert;
import nvidb.core.api.Lease;
import nvidb.core.api.NvidbException;
import nvidb.core.api.SinkDelivery;
import nvidb.core.api.TickSummary;
import nvidb.core.config.QueueConfig;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.store.DeliveryRepository.Unsettled;
import nvidb.core.store.LeaseRepository;
import nvidb.core.store.Store;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.SinkContext;

/**
 * Hands the alerts to the configured alert sinks, at the end of a scheduler pass. For each alert
 * whose delivery is unsettled, oldest first, and each sink it is due to: deliver, then record the
 * outcome in a short transaction of its own. Delivered and skipped are final; a failure is tried
 * again on a later pass after {@link DeliveryBackoff}. When every sink the alert is due to has
 * delivered or skipped it, {@code notified_at} is set and the alert leaves the work list.
 * {@code min_severity} decides which sinks an alert is due to, so an alert below it is settled at
 * once with nothing sent; it is recorded like any other.
 *
 * <p>Who delivers, and for how long, is the caller's {@link Allowance}: while a queue daemon
 * serves the database only the daemon delivers; without one, {@code queue tick} may spend
 * {@link #FULL_BUDGET} and any other command {@link #COMMAND_BUDGET}, so a sink that does not
 * answer never holds up a command: the rest waits for the next pass.
 *
 * <p>It runs after the scheduler lease is given back, under a lease of its own: a slow sink never
 * holds up another client's pass or operation, and two processes never send the same alert. A
 * holder killed between a sink's success and its record leaves that one delivery to be repeated by
 * the next pass; the alert's id in the payload lets a consumer drop it.
 *
 * <p>Bounded: at most {@link #MAX_ALERTS_PER_PASS} alerts get a sink call per pass, no call starts
 * after the budget, and a call is waited for until the budget runs out, and {@link #CALL_CAP} at
 * most. A call the budget cut short counts as a failed attempt (its sink may not answer at all);
 * a sink that failed is not called again in the same pass.
 */
public final class AlertDeliveryPass {
    public static final String LEASE = "alert_delivery";
    static final int MAX_ALERTS_PER_PASS = 50;
    /** What {@code queue tick} and the daemon may spend on the sinks in one pass. */
    public static final Duration FULL_BUDGET = Duration.ofSeconds(30);
    /** What any other command's pass may spend on the sinks, in all. */
    public static final Duration COMMAND_BUDGET = Duration.ofSeconds(2);
    static final Duration CALL_CAP = Duration.ofSeconds(60);
    /** Longer than the longest a pass can deliver for, so the lease never runs out under a live holder. */
    static final Duration LEASE_TTL = FULL_BUDGET.plus(CALL_CAP).plusSeconds(30);

    /**
     * How long this pass may spend on the sinks, asked only when an alert waits (it may read the
     * database); {@link Duration#ZERO} leaves the alerts to another process (the daemon).
     */
    @FunctionalInterface
    public interface Allowance {
        Duration budget();
    }

    /** Sinks that said in this process that they cannot run here: each is reported skipped once. */
    private static final Set<String> SAID_SKIPPED = ConcurrentHashMap.newKeySet();

    private final Store store;
    private final Supplier<List<ConfiguredSinks.Named>> sinkSource;
    private final String minSeverity;
    private final Clock clock;
    private final Duration callCap;
    private final String owner = LeaseRepository.newOwner();
    private List<ConfiguredSinks.Named> sinks;

    /** The sinks {@code queue.notify} configures, created at the first pass that has an alert to deliver. */
    public AlertDeliveryPass(Store store, QueueConfig config, PluginRegistry plugins, SinkContext context) {
        this(store, () -> ConfiguredSinks.create(plugins, config.settings().notifySettings(), context),
                String.valueOf(config.settings().notifySettings().getOrDefault("min_severity", "warning")),
                Clock.systemUTC(), CALL_CAP);
    }

    AlertDeliveryPass(Store store, Supplier<List<ConfiguredSinks.Named>> sinks, String minSeverity, Clock clock,
                      Duration callCap) {
        this.store = store;
        this.sinkSource = sinks;
        this.minSeverity = minSeverity;
        this.clock = clock;
        this.callCap = callCap;
    }

    /**
     * Delivers what is due and records it; adds each sink call to {@code summary}. Returns at once
     * when no alert is unsettled (one read), or when another process holds the delivery lease.
     *
     * @throws NvidbException interrupted: Ctrl-C or SIGTERM while a sink was called; that call
     *                        is not recorded (the next pass makes it again)
     */
    public void run(TickSummary.Builder summary, Allowance allowance) {
        if (!store.db.read(store.deliveries::anyUnsettled)) {
            return;
        }
        Duration budget = allowance.budget();
        if (budget.isZero() || budget.isNegative()) {
            return; // the daemon delivers
        }
        Optional<Lease> blocker = store.leases.acquire(LEASE, owner, LEASE_TTL, now());
        if (blocker.isPresent()) {
            return; // another process is delivering: it settles these
        }
        try {
            deliverDue(summary, budget);
        } finally {
            store.leases.release(LEASE, owner);
        }
    }

    private void deliverDue(TickSummary.Builder summary, Duration budget) {
        if (sinks == null) {
            sinks = sinkSource.get();
        }
        // The budget is for the sinks' calls: setting them up (an HTTP client's first use in a
        // fresh JVM) must not leave an instant sink such as the log without its turn.
        long deadline = System.nanoTime() + budget.toNanos();
        Set<String> failedThisPass = new HashSet<>();
        List<Long> nothingDue = new ArrayList<>();
        int called = 0;
        for (Unsettled u : store.db.read(store.deliveries::unsettled)) {
            List<ConfiguredSinks.Named> due = atOrAbove(u.severity(), minSeverity) ? sinks : List.of();
            Map<String, SinkDelivery> rows = new HashMap<>(u.bySink());
            if (settled(due, rows)) {
                nothingDue.add(u.id());
            } else if (called < MAX_ALERTS_PER_PASS && System.nanoTime() < deadline
                    && deliver(u.id(), due, rows, failedThisPass, new Deadline(deadline, budget), summary)) {
                called++;
            }
        }
        summary.notified(nothingDue.size());
        if (!nothingDue.isEmpty()) {
            Instant now = now();
            store.db.write(() -> {
                nothingDue.forEach(id -> store.deliveries.notified(id, now));
                return null;
            });
        }
    }

    /** When this pass's time for the sinks runs out ({@link System#nanoTime}), and how long it was. */
    private record Deadline(long at, Duration budget) {
        long left() {
            return at - System.nanoTime();
        }
    }

    /** Calls each due sink that is not settled, waiting, or down this pass; whether any was called. */
    private boolean deliver(long id, List<ConfiguredSinks.Named> due, Map<String, SinkDelivery> rows,
                            Set<String> failedThisPass, Deadline deadline, TickSummary.Builder summary) {
        AlertMessage message = null;
        boolean called = false;
        for (ConfiguredSinks.Named s : due) {
            SinkDelivery row = rows.get(s.name());
            boolean waiting = row != null && (row.settled() || row.nextTryAt() != null && row.nextTryAt().isAfter(now()));
            if (waiting || failedThisPass.contains(s.name()) || deadline.left() <= 0) {
                continue;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw NvidbException.interrupted();
            }
            if (message == null) {
                Optional<Alert> alert = store.db.read(() -> store.alerts.find(id));
                if (alert.isEmpty()) {
                    return called;
                }
                message = AlertPayload.of(alert.get());
            }
            long left = deadline.left();
            SinkCall.Outcome outcome = left >= callCap.toNanos()
                    ? SinkCall.deliver(s.name(), s.sink(), message, callCap, null)
                    : SinkCall.deliver(s.name(), s.sink(), message, Duration.ofNanos(left),
                            "this pass's " + SinkCall.seconds(deadline.budget()) + " s for alert sinks ran out");
            called = true;
            if (record(id, s.name(), row, outcome, due, rows)) {
                summary.notified(1);
            }
            if (outcome.outcome().equals(SinkCall.Outcome.FAILED)) {
                failedThisPass.add(s.name());
            }
            if (!outcome.outcome().equals(SinkCall.Outcome.SKIPPED) || SAID_SKIPPED.add(s.name())) {
                summary.delivery(new TickSummary.Delivery(id, s.name(), outcome.outcome(), outcome.detail()));
            }
        }
        return called;
    }

    /** Records one call's outcome, and {@code notified_at} with it when that settles the alert (then true). */
    private boolean record(long id, String sink, SinkDelivery before, SinkCall.Outcome outcome,
                        List<ConfiguredSinks.Named> due, Map<String, SinkDelivery> rows) {
        Instant now = now();
        int attempts = (before == null ? 0 : before.attempts()) + 1;
        String kind = outcome.outcome();
        SinkDelivery after;
        if (kind.equals(SinkCall.Outcome.DELIVERED)) {
            after = new SinkDelivery(sink, now, null, attempts, null, null);
        } else if (kind.equals(SinkCall.Outcome.SKIPPED)) {
            after = new SinkDelivery(sink, null, now, attempts, null, outcome.detail());
        } else {
            after = new SinkDelivery(sink, null, null, attempts, now.plus(DeliveryBackoff.after(attempts)), outcome.detail());
        }
        rows.put(sink, after);
        boolean settlesAlert = settled(due, rows);
        store.db.write(() -> {
            if (after.deliveredAt() != null) {
                store.deliveries.delivered(id, sink, now);
            } else if (after.skippedAt() != null) {
                store.deliveries.skipped(id, sink, now, after.lastError());
            } else {
                store.deliveries.failed(id, sink, after.nextTryAt(), after.lastError());
            }
            if (settlesAlert) {
                store.deliveries.notified(id, now);
            }
            return null;
        });
        return settlesAlert;
    }

    private static boolean settled(List<ConfiguredSinks.Named> due, Map<String, SinkDelivery> rows) {
        for (ConfiguredSinks.Named s : due) {
            SinkDelivery row = rows.get(s.name());
            if (row == null || !row.settled()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether an alert of {@code severity} is sent under {@code min_severity}. Only {@code warning}
     * ranks below {@code error}; a severity this build does not know is sent, never dropped unseen.
     */
    static boolean atOrAbove(String severity, String minSeverity) {
        return rank(severity) >= rank(minSeverity);
    }

    private static int rank(String severity) {
        return "warning".equals(severity) ? 1 : 2;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }
}
