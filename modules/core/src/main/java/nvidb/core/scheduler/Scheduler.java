package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import nvidb.core.config.QueueConfig;
import nvidb.core.model.Job;
import nvidb.core.model.Lease;
import nvidb.core.model.NodeRecord;
import nvidb.core.model.TickSummary;
import nvidb.core.store.JobRepository.Changes;
import nvidb.core.store.JobRepository.Column;
import nvidb.core.store.Store;
import nvidb.core.util.Times;

/**
 * One scheduler pass ("tick"), guarded by the {@code scheduler} lease so that many clients
 * ticking at once make one pass, not several. A tick is many small commits, not one transaction:
 * other clients may see its intermediate states, and each of them is consistent.
 */
public final class Scheduler {
    public static final String LEASE = "scheduler";
    static final String LAST_TICK = "last_tick_at";

    private final Store store;
    private final QueueConfig config;
    private final String owner;

    public Scheduler(Store store, QueueConfig config) {
        this.store = store;
        this.config = config;
        this.owner = ownerName();
    }

    static String ownerName() {
        return nvidb.core.util.Hostname.get() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().replace("-", "");
    }

    public String owner() {
        return owner;
    }

    public Duration leaseTtl() {
        return Duration.ofSeconds(config.settings().effectiveLockTtl());
    }

    /**
     * Runs one pass. A non-forced pass is skipped when the last one finished less than
     * {@code tick_min_interval} ago; any pass is skipped when another client holds the lease.
     */
    public TickSummary tick(boolean force) {
        Instant now = Instant.now();
        if (!force && recentlyTicked(now)) {
            return TickSummary.skipped("rate_limited", null);
        }
        Optional<Lease> blocker = store.leases.acquire(LEASE, owner, leaseTtl(), now);
        if (blocker.isPresent()) {
            return TickSummary.skipped("locked", blocker.get().owner());
        }
        TickSummary summary = TickSummary.started();
        try {
            countNodes(summary);
            gateDependencies(summary);
            store.db.write(() -> {
                store.meta.put(LAST_TICK, Times.iso(Times.now()));
                return null;
            });
        } finally {
            store.leases.release(LEASE, owner);
        }
        return summary;
    }

    private boolean recentlyTicked(Instant now) {
        Instant last = store.db.read(() -> store.meta.get(LAST_TICK).map(Times::parse).orElse(null));
        double min = config.settings().tickMinInterval();
        return last != null && Duration.between(last, now).toMillis() < min * 1000;
    }

    private void countNodes(TickSummary summary) {
        List<NodeRecord> nodes = store.db.read(store.nodes::all);
        for (NodeRecord n : nodes) {
            summary.countNode(n.state(), n.ignored());
        }
    }

    /** Holds pending jobs whose dependencies died, and lets go of those whose reason went away. */
    private void gateDependencies(TickSummary summary) {
        store.db.write(() -> {
            List<Job> candidates = store.jobs.gateCandidates();
            java.util.Set<Long> depIds = new java.util.HashSet<>();
            for (Job j : candidates) {
                depIds.addAll(j.dependsOn());
                depIds.addAll(j.dependsAny());
            }
            Map<Long, Job> byId = new HashMap<>();
            for (Job d : store.jobs.byIds(depIds)) {
                byId.put(d.id(), d);
            }
            Instant now = Times.now();
            for (Job job : candidates) {
                DependencyGate.Outcome outcome = DependencyGate.evaluate(job, byId);
                if (outcome.verdict() == DependencyGate.Verdict.HELD) {
                    if (!outcome.holdReason().equals(job.heldReason())) {
                        hold(job, outcome.holdReason(), now, summary);
                    }
                } else if (job.held()) {
                    store.jobs.update(job.id(), Changes.of(Column.HELD_REASON, null), now);
                    store.events.append(now, "job_unheld", job.id(), null, "no longer held", null);
                }
            }
            return null;
        });
    }

    private void hold(Job job, String reason, Instant now, TickSummary summary) {
        store.jobs.update(job.id(), Changes.of(Column.HELD_REASON, reason), now);
        store.events.append(now, "job_held", job.id(), null, reason, Map.of("reason", reason));
        String title = "job " + job.id() + (job.name().isEmpty() ? "" : " (" + job.name() + ")") + " is held: " + reason;
        String detail = "It stays pending and keeps its place. Release it with `nvidb job release " + job.id()
                + "`, repoint it with `nvidb job edit " + job.id() + " --add-after ID`, or cancel it with `nvidb job cancel "
                + job.id() + "`.";
        long alertId = store.alerts.raise(now, "job_held", "warning", job.id(), null, title, detail);
        summary.held().add(new TickSummary.Held(job.id(), reason));
        summary.alerts().add(new TickSummary.AlertRef(alertId, "job_held", title, job.id()));
    }
}
