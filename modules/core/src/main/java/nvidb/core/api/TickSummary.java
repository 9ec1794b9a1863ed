package nvidb.core.api;

import java.util.ArrayList;
import java.util.List;

/**
 * What one scheduler pass did, as {@code queue tick --json} prints it. Immutable: the passes of a
 * tick add to a {@link Builder}, and the tick hands out what it built.
 *
 * @param ran           a pass ran (false when it was skipped or disabled)
 * @param skippedReason why no pass ran ({@code rate_limited}, {@code locked}, {@code disabled}), or null
 * @param lockOwner     who held the lease when it was {@code locked}
 * @param isDisabled    the command ran with {@code --no-tick}
 * @param deliveries    what the alert sinks did with the alerts after the pass (a sink that cannot
 *                      run here is reported skipped once per process; every alert's record says it)
 * @param notified      how many alerts this pass settled: every sink they were due to has them now
 *                      (or they were due to none), so their {@code notified_at} was set
 */
public record TickSummary(boolean ran, String skippedReason, String lockOwner, boolean isDisabled, int nodesUp,
                          int nodesDown, int nodesIgnored, List<Finished> finished, List<Dispatched> dispatched,
                          List<Problem> errors, List<AlertRef> alerts, List<Held> held, List<Delivery> deliveries,
                          int notified) {
    public record Finished(long id, String state, Integer exitCode) {
    }

    public record Dispatched(long id, String node, List<Integer> gpuIds, String lane) {
    }

    public record Problem(String subjectKey, String subject, String error) {
    }

    public record AlertRef(long id, String kind, String title, Long jobId) {
    }

    public record Held(long id, String reason) {
    }

    /**
     * One alert handed to one sink.
     *
     * @param outcome {@code delivered}, {@code failed} (tried again later) or {@code skipped}
     * @param error   why it failed or was skipped; null when delivered
     */
    public record Delivery(long alertId, String sink, String outcome, String error) {
    }

    public TickSummary {
        finished = List.copyOf(finished);
        dispatched = List.copyOf(dispatched);
        errors = List.copyOf(errors);
        alerts = List.copyOf(alerts);
        held = List.copyOf(held);
        deliveries = List.copyOf(deliveries);
    }

    public static TickSummary skipped(String why, String lockOwner) {
        return new TickSummary(false, why, lockOwner, false, 0, 0, 0, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), 0);
    }

    /** The summary of a command run with {@code --no-tick}: printed as {"skipped": "disabled"}. */
    public static TickSummary disabled() {
        return new TickSummary(false, "disabled", null, true, 0, 0, 0, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), 0);
    }

    /** Collects what the passes of one tick did; used by one thread, the tick's. */
    public static final class Builder {
        private int nodesUp;
        private int nodesDown;
        private int nodesIgnored;
        private final List<Finished> finished = new ArrayList<>();
        private final List<Dispatched> dispatched = new ArrayList<>();
        private final List<Problem> errors = new ArrayList<>();
        private final List<AlertRef> alerts = new ArrayList<>();
        private final List<Held> held = new ArrayList<>();
        private final List<Delivery> deliveries = new ArrayList<>();
        private int notified;

        public void countNode(NodeState state, boolean ignored) {
            if (ignored) {
                nodesIgnored++;
            } else if (state == NodeState.UP) {
                nodesUp++;
            } else if (state == NodeState.DOWN) {
                nodesDown++;
            }
        }

        public void finished(long id, String state, Integer exitCode) {
            finished.add(new Finished(id, state, exitCode));
        }

        public void dispatched(Dispatched d) {
            dispatched.add(d);
        }

        public void problem(String subjectKey, String subject, String error) {
            errors.add(new Problem(subjectKey, subject, error));
        }

        /** Records an alert a move raised; a move that raised none passes null. */
        public void alert(AlertRef alert) {
            if (alert != null) {
                alerts.add(alert);
            }
        }

        public void held(long id, String reason) {
            held.add(new Held(id, reason));
        }

        public void delivery(Delivery delivery) {
            deliveries.add(delivery);
        }

        /** Counts alerts this pass settled (see {@link TickSummary#notified}). */
        public void notified(int count) {
            notified += count;
        }

        public TickSummary build() {
            return new TickSummary(true, null, null, false, nodesUp, nodesDown, nodesIgnored, finished, dispatched,
                    errors, alerts, held, deliveries, notified);
        }
    }
}
