package nvidb.core.daemon;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.api.Job;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;

/**
 * When the daemon passes again soon rather than after its interval. A pass hands a lane runner
 * only the lane's head (a staged job); the runner starts it when the card is free, and only a
 * later pass, seeing it run, stages the job after it. Were that pass an interval away, a job
 * shorter than the interval would leave the card idle once it ended. So while some lane has work
 * waiting (a pending job that is not held), the daemon follows up after half a second, then one,
 * two, four … seconds (never later than its interval), and starts again at half a second
 * whenever the lanes moved (a job staged or started, a running one ended). Work waiting behind
 * a long job costs a handful of passes, then the interval rules again.
 */
final class LaneFollowUp {
    static final Duration FIRST = Duration.ofMillis(500);

    private Duration next = FIRST;
    private Set<String> seen = Set.of();

    /** How soon to pass again after the pass just made, or null for the interval. */
    Duration after(Queue queue) {
        return after(queue.jobQueries().jobs(
                new JobQuery(EnumSet.of(JobState.PENDING, JobState.RUNNING), false, null, null, 0)).jobs());
    }

    /** {@link #after(Queue)} given the pending and running jobs. */
    Duration after(List<Job> active) {
        Set<String> now = laneState(active);
        if (now.stream().allMatch(s -> s.startsWith("running "))) {
            next = FIRST;
            seen = now;
            return null;
        }
        if (!now.equals(seen)) {
            next = FIRST;
            seen = now;
        }
        Duration wait = next;
        next = next.multipliedBy(2);
        return wait;
    }

    /**
     * Where the lanes' jobs stand: {@code running ID}, {@code staged ID} (pending with a run
     * directory: handed to its runner) and {@code waiting ID} (pending, not yet handed over);
     * held jobs are left out, as no pass moves them.
     */
    static Set<String> laneState(List<Job> active) {
        Set<String> out = new TreeSet<>();
        for (Job j : active) {
            if (j.lane() == null || j.held()) {
                continue;
            }
            if (j.state() == JobState.RUNNING) {
                out.add("running " + j.id());
            } else if (j.state() == JobState.PENDING) {
                out.add((j.runDir() != null ? "staged " : "waiting ") + j.id());
            }
        }
        return out;
    }
}
