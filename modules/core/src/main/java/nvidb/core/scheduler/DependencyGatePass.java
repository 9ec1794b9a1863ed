package nvidb.core.scheduler;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.store.Store;

/**
 * Holds pending jobs whose dependencies died (one alert per new reason), and lets go of those
 * whose reason went away, in one transaction so that no client sees half a verdict.
 */
final class DependencyGatePass {
    private final Store store;
    private final JobLifecycle lifecycle;

    DependencyGatePass(Store store, JobLifecycle lifecycle) {
        this.store = store;
        this.lifecycle = lifecycle;
    }

    void run(TickSummary.Builder summary) {
        store.db.write(() -> {
            List<Job> candidates = store.jobs.gateCandidates();
            Map<Long, Job> deps = dependencies(store, candidates);
            Instant now = Times.now();
            for (Job job : candidates) {
                DependencyGate.Outcome outcome = DependencyGate.evaluate(job, deps);
                if (outcome.verdict() == DependencyGate.Verdict.HELD) {
                    if (!outcome.holdReason().equals(job.heldReason())) {
                        summary.alert(lifecycle.hold(job.id(), outcome.holdReason(), now).alert());
                        summary.held(job.id(), outcome.holdReason());
                    }
                } else if (job.held()) {
                    lifecycle.unhold(job.id(), now);
                }
            }
            return null;
        });
    }

    /** Every job the given jobs depend on ({@code --after} and {@code --after-any}), by id. */
    static Map<Long, Job> dependencies(Store store, List<Job> jobs) {
        Set<Long> ids = new HashSet<>();
        for (Job j : jobs) {
            ids.addAll(j.dependsOn());
            ids.addAll(j.dependsAny());
        }
        Map<Long, Job> byId = new HashMap<>();
        store.db.read(() -> store.jobs.byIds(ids)).forEach(d -> byId.put(d.id(), d));
        return byId;
    }
}
