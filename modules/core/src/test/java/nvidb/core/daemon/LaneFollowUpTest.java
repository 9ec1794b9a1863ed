package nvidb.core.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import org.junit.jupiter.api.Test;

class LaneFollowUpTest {
    @Test
    void theLanesStateIsTheirRunningStagedAndWaitingJobsNotHeldOnes() {
        Job staged = job(2, JobState.PENDING, "box:0", "/jobs/2/1");
        Job queued = job(3, JobState.PENDING, "box:0", null);
        Job running = job(1, JobState.RUNNING, "box:0", "/jobs/1/1");
        Job pool = job(4, JobState.RUNNING, null, "/jobs/4/1");
        Job held = new Job(5, "", JobState.PENDING, "true", null, Map.of(), 0, 1, 0, null, List.of(), List.of(), null,
                "t", List.of(), null, null, null, null, null, List.of(), "box:0", 5L, null, null, null, null, 0, 0, null,
                null, null, null, null, null, null, "job 9 failed", null);
        assertEquals(Set.of("running 1", "staged 2", "waiting 3"),
                LaneFollowUp.laneState(List.of(staged, queued, running, pool, held)));
        assertEquals(Set.of(), LaneFollowUp.laneState(List.of(pool, held)), "no lane work a pass could move");
    }

    @Test
    void whileALaneHasWorkWaitingTheDaemonFollowsUpSoonerTheMoreRecentlyTheLanesMoved() {
        LaneFollowUp f = new LaneFollowUp();
        List<Job> first = List.of(job(1, JobState.PENDING, "box:0", "/j/1"), job(2, JobState.PENDING, "box:0", null));
        assertEquals(Duration.ofMillis(500), f.after(first), "handed to the runner: look again soon");
        assertEquals(Duration.ofMillis(1000), f.after(first), "nothing moved: a little later");
        assertEquals(Duration.ofMillis(2000), f.after(first));
        List<Job> moved = List.of(job(1, JobState.RUNNING, "box:0", "/j/1"), job(2, JobState.PENDING, "box:0", "/j/2"));
        assertEquals(Duration.ofMillis(500), f.after(moved), "1 started and 2 was staged: soon again");
        assertEquals(Duration.ofMillis(1000), f.after(moved));
        assertNull(f.after(List.of(job(2, JobState.RUNNING, "box:0", "/j/2"))), "nothing waiting: the interval");
        assertEquals(Duration.ofMillis(500), f.after(first), "and afresh after that");
    }

    private static Job job(long id, JobState state, String lane, String runDir) {
        return new Job(id, "", state, "true", null, Map.of(), 0, 1, 0, null, List.of(), List.of(), null, "t", List.of(),
                null, null, null, null, null, List.of(), lane, id, null, null, runDir, null, 0, 0, null, null, null, null,
                null, null, null, null, null);
    }
}
