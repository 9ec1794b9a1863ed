package nvidb.tui.model;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Alert;
import nvidb.core.api.Job;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.NodeAdmin.NodeView;
import nvidb.core.api.UserStanding;

/**
 * What the queue looked like at one read of the database: the nodes as their last probe left
 * them, the active jobs, the latest finished ones, the lanes and the open alerts. Read off the UI
 * thread, then handed over whole.
 *
 * @param active     pending and running jobs, in no particular order
 * @param finished   the newest finished jobs, newest first
 * @param openAlerts the newest open alerts, oldest first; {@code openAlertCount} counts them all
 * @param users      each user's fair-share standing, what they run and wait for (a line when several)
 * @param fairshare  {@code queue.fairshare}: the free pool goes in fair share's order
 */
public record Snapshot(Instant takenAt, String database, Instant lastTickAt, long headroomMb, List<NodeView> nodes,
                       List<Job> active, List<Job> finished, List<LaneView> lanes, List<Alert> openAlerts,
                       long openAlertCount, List<UserStanding> users, boolean fairshare) {
    public static final Snapshot EMPTY = new Snapshot(null, "", null, 0, List.of(), List.of(), List.of(), List.of(),
            List.of(), 0, List.of(), false);

    public Snapshot {
        nodes = List.copyOf(nodes);
        active = List.copyOf(active);
        finished = List.copyOf(finished);
        lanes = List.copyOf(lanes);
        openAlerts = List.copyOf(openAlerts);
        users = List.copyOf(users);
    }

    /**
     * The order the free pool starts in: fair share's, by each user's factor as of the last pass,
     * when it is on and several users have jobs; else priority, then age.
     */
    public java.util.Comparator<Job> poolOrder() {
        if (!fairshare || users.size() < 2) {
            return Job.DISPATCH_ORDER;
        }
        Map<String, Double> factors = new HashMap<>();
        users.forEach(u -> factors.put(u.user(), u.factor()));
        return Job.fairShareOrder(j -> factors.getOrDefault(j.user() == null ? UserStanding.UNKNOWN : j.user(), 0.0));
    }

    /** A job this snapshot knows (active or recently finished). */
    public Optional<Job> job(long id) {
        return Optional.ofNullable(jobsById().get(id));
    }

    /** Every job this snapshot holds, by id. */
    public Map<Long, Job> jobsById() {
        Map<Long, Job> byId = new HashMap<>();
        finished.forEach(j -> byId.put(j.id(), j));
        active.forEach(j -> byId.put(j.id(), j));
        return byId;
    }

    /** The lane a job is queued or running in, as the lanes view shows it. */
    public Optional<LaneView> lane(String name) {
        return lanes.stream().filter(l -> l.lane().name().equals(name)).findFirst();
    }
}
