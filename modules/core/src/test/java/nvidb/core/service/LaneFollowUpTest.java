package nvidb.core.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import org.junit.jupiter.api.Test;

class LaneFollowUpTest {
    @Test
    void onlyAStagedHeadOnALaneThatRunsNothingAsksForAPassSoon() {
        Job staged = job(2, JobState.PENDING, "box:0", "/jobs/2/1");
        Job queued = job(3, JobState.PENDING, "box:0", null);
        Job running = job(1, JobState.RUNNING, "box:0", "/jobs/1/1");
        Job pool = job(4, JobState.PENDING, null, "/jobs/4/1");
        assertTrue(LaneFollowUp.handedToIdleRunner(List.of(staged, queued)), "the runner starts it at once");
        assertFalse(LaneFollowUp.handedToIdleRunner(List.of(running, staged)),
                "staged behind a running job: the next pass after the interval is in time");
        assertFalse(LaneFollowUp.handedToIdleRunner(List.of(queued, pool)), "nothing staged on a lane");
        assertTrue(LaneFollowUp.handedToIdleRunner(List.of(running, job(5, JobState.PENDING, "box:1", "/jobs/5/1"))),
                "another lane's running job does not count");
    }

    private static Job job(long id, JobState state, String lane, String runDir) {
        return new Job(id, "", state, "true", null, Map.of(), 0, 1, 0, null, List.of(), List.of(), null, "t", List.of(),
                null, null, null, null, null, List.of(), lane, id, null, null, runDir, null, 0, 0, null, null, null, null,
                null, null, null, null, null);
    }
}
