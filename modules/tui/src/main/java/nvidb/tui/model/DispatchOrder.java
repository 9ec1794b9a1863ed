package nvidb.tui.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneQueries.LaneView;

/**
 * The job table's default order, the order work happens in: running jobs first (longest
 * running first), then the pending ones as a scheduler pass takes them — the lanes' queues first
 * (the lane passes run before the pool's), lane by lane in the lanes view's order, each in its own
 * running order; then the free pool in {@link Job#DISPATCH_ORDER}. Held jobs keep their place
 * (the pass skips them there); finished jobs follow, newest first.
 */
public final class DispatchOrder {
    private static final Comparator<Job> RUNNING = Comparator
            .comparing(Job::startedAt, Comparator.nullsLast(Comparator.naturalOrder())).thenComparingLong(Job::id);
    private static final Comparator<Job> FINISHED = Comparator
            .comparing(Job::finishedAt, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(Comparator.comparingLong(Job::id).reversed());

    private DispatchOrder() {
    }

    public static List<Job> of(List<Job> jobs, List<LaneView> lanes) {
        return of(jobs, lanes, Job.DISPATCH_ORDER);
    }

    /** As above, the free pool in {@code poolOrder} (fair share's, {@link Snapshot#poolOrder}). */
    public static List<Job> of(List<Job> jobs, List<LaneView> lanes, Comparator<Job> poolOrder) {
        List<Job> out = new ArrayList<>();
        jobs.stream().filter(j -> j.state() == JobState.RUNNING).sorted(RUNNING).forEach(out::add);

        List<Job> pending = jobs.stream().filter(j -> j.state() == JobState.PENDING).toList();
        Map<Long, Job> byId = pending.stream().collect(Collectors.toMap(Job::id, j -> j, (a, b) -> a));
        Set<Long> placed = new LinkedHashSet<>();
        for (LaneView lane : lanes) {
            for (Job queued : lane.queued()) {
                Job current = byId.get(queued.id());
                if (current != null && current.lane() != null && placed.add(current.id())) {
                    out.add(current);
                }
            }
        }
        // A lane job the lanes view did not list (a lane read a moment apart): its lane's order.
        pending.stream().filter(j -> j.lane() != null && !placed.contains(j.id()))
                .sorted(Comparator.comparing(Job::lane).thenComparing(Job.LANE_ORDER)).forEach(out::add);
        pending.stream().filter(j -> j.lane() == null).sorted(poolOrder).forEach(out::add);

        jobs.stream().filter(j -> j.state().terminal()).sorted(FINISHED).forEach(out::add);
        return out;
    }
}
