package nvidb.core.service;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;

/**
 * When the daemon passes again soon rather than after its interval. A pass hands a lane runner
 * only the lane's head; a runner on an idle lane starts that head within a quarter second, and
 * only the next pass, seeing it run, stages the job after it. Were that pass an interval away, a
 * head shorter than the interval would leave the card idle once it ended. So while a staged head
 * sits on a lane with nothing recorded running, the daemon follows up after half a second, then
 * one, two, … (a head the runner holds back, for a card that is busy, costs few passes), never
 * later than the interval.
 */
final class LaneFollowUp {
    static final Duration FIRST = Duration.ofMillis(500);

    private Duration next = FIRST;

    /** How soon to pass again after the pass just made, or null for the interval. */
    Duration after(Queue queue) {
        if (!handedToIdleRunner(queue.jobQueries().jobs(
                new JobQuery(EnumSet.of(JobState.PENDING, JobState.RUNNING), false, null, null, 0)).jobs())) {
            next = FIRST;
            return null;
        }
        Duration now = next;
        next = next.multipliedBy(2);
        return now;
    }

    /** A pending lane job with a run directory is staged with its runner; true when its lane runs nothing. */
    static boolean handedToIdleRunner(List<Job> active) {
        Set<String> busy = new HashSet<>();
        for (Job j : active) {
            if (j.state() == JobState.RUNNING && j.lane() != null) {
                busy.add(j.lane());
            }
        }
        for (Job j : active) {
            if (j.state() == JobState.PENDING && j.lane() != null && j.runDir() != null && !busy.contains(j.lane())) {
                return true;
            }
        }
        return false;
    }
}
