package nvidb.tui.model;

import static nvidb.tui.Fixtures.job;
import static nvidb.tui.Fixtures.lane;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import org.junit.jupiter.api.Test;

class DispatchOrderTest {
    @Test
    void runningThenLanesInTheirOrderThenThePoolByPriorityThenFinishedNewestFirst() {
        Job run2 = job(2, JobState.RUNNING, 0, null, null);
        Job run1 = job(1, JobState.RUNNING, 0, null, null);
        Job lane9 = job(9, JobState.PENDING, 0, "alpha:0", null);
        Job lane5 = job(5, JobState.PENDING, 0, "alpha:0", null);
        Job pool3 = job(3, JobState.PENDING, 0, null, null);
        Job pool4 = job(4, JobState.PENDING, 7, null, null);
        Job held6 = job(6, JobState.PENDING, 3, null, "dependency 2 failed");
        Job done7 = job(7, JobState.COMPLETED, 0, null, null);
        Job done8 = job(8, JobState.FAILED, 0, null, null);
        // The lane runs 9 before 5: its order is the lanes view's, whatever the ids say.
        List<Job> order = DispatchOrder.of(List.of(done7, pool3, lane5, held6, run2, lane9, pool4, done8, run1),
                List.of(lane("alpha:0", "alpha", List.of(), List.of(lane9, lane5))));
        assertEquals(List.of(1L, 2L, 9L, 5L, 4L, 6L, 3L, 8L, 7L), order.stream().map(Job::id).toList());
    }

    @Test
    void aLaneJobTheLanesViewMissedStillShowsInItsLanesOrder() {
        Job a = job(11, JobState.PENDING, 0, "beta:0", null);
        Job b = job(10, JobState.PENDING, 0, "beta:0", null);
        assertEquals(List.of(10L, 11L), DispatchOrder.of(List.of(a, b), List.of()).stream().map(Job::id).toList());
    }
}
