package nvidb.core.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Job;
import nvidb.core.lab.UserQuotas;

/**
 * What the dispatch passes of one tick share, read once after the gate: the pending jobs in
 * dispatch order ({@code order}: fair share's, or priority then age), the running ones, every job
 * they depend on, the placement planner whose budgets each start charges, and the two limits on
 * what may be under way at once, which each start charges too: a sweep's {@code --max-parallel}
 * and its user's quota. Why a limit kept a job waiting is noted as the passes go
 * ({@link #waits}), for the pass to record once at its end.
 */
record DispatchRound(List<Job> pending, List<Job> running, Map<Long, Job> deps, PlacementPlanner planner,
                     SweepLimits limits, UserQuotas quotas, Map<Long, String> waits) {
    DispatchRound(List<Job> pending, List<Job> running, Map<Long, Job> deps, PlacementPlanner planner,
                  SweepLimits limits, UserQuotas quotas, Comparator<Job> order) {
        this(sorted(pending, order), running, deps, planner, limits, quotas, new HashMap<>());
    }

    DispatchRound {
        pending = List.copyOf(pending);
        running = List.copyOf(running);
        deps = Map.copyOf(deps);
    }

    private static List<Job> sorted(List<Job> pending, Comparator<Job> order) {
        List<Job> out = new ArrayList<>(pending);
        out.sort(order);
        return out;
    }

    /**
     * Whether {@code job} may start (or be staged) now under its sweep's and its user's limits; when
     * it may not, the reason is noted as its wait.
     */
    boolean admits(Job job) {
        String refusal = limits.refusal(job);
        if (refusal == null) {
            Optional<String> quota = quotas.refusal(job);
            refusal = quota.orElse(null);
        }
        if (refusal != null) {
            waits.put(job.id(), refusal);
            return false;
        }
        return true;
    }

    /** Counts {@code job} as under way from now on, for its sweep and its user. */
    void charge(Job job) {
        limits.charge(job);
        quotas.charge(job);
    }

    /** The pending jobs of each lane, in lane order. */
    Map<String, List<Job>> laneQueues() {
        Map<String, List<Job>> queues = new java.util.LinkedHashMap<>();
        pending.stream().filter(j -> j.lane() != null).sorted(Job.LANE_ORDER)
                .forEach(j -> queues.computeIfAbsent(j.lane(), k -> new ArrayList<>()).add(j));
        return queues;
    }
}
