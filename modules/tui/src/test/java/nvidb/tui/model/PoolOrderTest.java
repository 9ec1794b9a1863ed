package nvidb.tui.model;

import static nvidb.tui.Fixtures.T0;
import static nvidb.tui.Fixtures.job;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.UserStanding;
import org.junit.jupiter.api.Test;

/** The job table predicts the free pool's order as the pass makes it: fair share's when it is on. */
class PoolOrderTest {
    private static Job of(long id, String user) {
        Job r = job(id, "j" + id, JobState.PENDING, 0, null, null, null, List.of());
        return new Job(r.id(), r.name(), r.state(), r.command(), r.workdir(), r.env(), r.priority(), r.gpus(),
                r.vramMb(), r.nodeConstraint(), r.dependsOn(), r.dependsAny(), r.maxRuntimeS(), r.submitter(), r.tags(),
                r.createdAt(), r.updatedAt(), r.startedAt(), r.finishedAt(), r.node(), r.gpuIds(), r.lane(), r.laneSeq(),
                r.remotePid(), r.remotePgid(), r.runDir(), r.exitCode(), r.attempt(), r.maxRetries(), r.lastError(),
                r.heartbeatAt(), r.gpuMemMb(), r.resultJson(), r.notes(), r.progress(), r.progressAt(), r.heldReason(),
                r.idempotencyKey(), r.learned(), user, null);
    }

    private static List<Long> order(boolean fairshare) {
        List<UserStanding> users = List.of(
                new UserStanding("alice", 1, 50, 12.5, 96, 1, 1, 2, null, null, null, null),
                new UserStanding("bob", 1, 50, 0.5, 4, 0, 0, 1, null, null, null, null));
        Snapshot s = new Snapshot(T0, "/q.db", T0, 512, List.of(), List.of(of(1, "alice"), of(2, "alice"), of(3, "bob")),
                List.of(), List.of(), List.of(), 0, users, fairshare);
        return DispatchOrder.of(s.active(), s.lanes(), s.poolOrder()).stream().map(Job::id).toList();
    }

    @Test
    void underFairShareTheLightUsersJobComesFirst() {
        assertEquals(List.of(3L, 1L, 2L), order(true));
        assertEquals(List.of(1L, 2L, 3L), order(false), "queue.fairshare: false keeps priority, then age");
    }
}
