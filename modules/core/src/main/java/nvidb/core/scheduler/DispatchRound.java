package nvidb.core.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;

/**
 * What the dispatch passes of one tick share, read once after the gate: the pending jobs in
 * dispatch order, the running ones, every job they depend on, the placement planner whose
 * budgets each start charges, and the sweeps' limits on parallel runs, which each start charges too.
 */
record DispatchRound(List<Job> pending, List<Job> running, Map<Long, Job> deps, PlacementPlanner planner,
                     SweepLimits limits) {
    DispatchRound {
        pending = new ArrayList<>(pending);
        pending.sort(PlacementPlanner.ORDER);
        pending = List.copyOf(pending);
        running = List.copyOf(running);
        deps = Map.copyOf(deps);
    }

    /** The pending jobs of each lane, in lane order. */
    Map<String, List<Job>> laneQueues() {
        Map<String, List<Job>> queues = new java.util.LinkedHashMap<>();
        pending.stream().filter(j -> j.lane() != null).sorted(Job.LANE_ORDER)
                .forEach(j -> queues.computeIfAbsent(j.lane(), k -> new ArrayList<>()).add(j));
        return queues;
    }
}
