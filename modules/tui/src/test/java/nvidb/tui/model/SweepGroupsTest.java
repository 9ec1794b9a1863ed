package nvidb.tui.model;

import static nvidb.tui.Fixtures.T0;
import static nvidb.tui.Fixtures.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.tui.view.Screen;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A sweep's runs fold into one line of the job table; Enter unfolds it, Left folds it back. */
class SweepGroupsTest {
    private TuiModel model;
    private KeyBindings keys;

    /** Run {@code index} of sweep {@code sweep}: a job with the environment every run gets. */
    private static Job run(long id, long sweep, int index, JobState state) {
        Job j = job(id, "lr-" + index, state, 0, null, null, null, List.of());
        return new Job(j.id(), j.name(), j.state(), j.command(), j.workdir(),
                Map.of("NVIDB_SWEEP_ID", String.valueOf(sweep), "NVIDB_SWEEP_INDEX", String.valueOf(index)),
                j.priority(), j.gpus(), j.vramMb(), j.nodeConstraint(), j.dependsOn(), j.dependsAny(), j.maxRuntimeS(),
                j.submitter(), j.tags(), j.createdAt(), j.updatedAt(), j.startedAt(), j.finishedAt(), j.node(), j.gpuIds(),
                j.lane(), j.laneSeq(), j.remotePid(), j.remotePgid(), j.runDir(), j.exitCode(), j.attempt(), j.maxRetries(),
                j.lastError(), j.heartbeatAt(), j.gpuMemMb(), j.resultJson(), j.notes(), j.progress(), j.progressAt(),
                j.heldReason(), j.idempotencyKey());
    }

    @BeforeEach
    void setUp() {
        model = new TuiModel(3);
        keys = new KeyBindings(model);
        Job alone = job(1, JobState.RUNNING, 0, null, null);
        model.setSnapshot(new Snapshot(T0, "/q.db", T0, 512, List.of(),
                List.of(alone, run(2, 7, 0, JobState.RUNNING), run(3, 7, 1, JobState.RUNNING), run(4, 7, 2, JobState.PENDING),
                        job(5, JobState.PENDING, 0, null, null)), List.of(), List.of(), List.of(), 0, List.of(), true));
    }

    private List<Long> rows() {
        return model.rows().stream().map(Job::id).toList();
    }

    @Test
    void aSweepIsOneLineWithItsCountsUntilEnterUnfoldsItAndLeftFoldsItBack() {
        assertEquals(List.of(1L, 2L, 5L), rows(), "runs 3 and 4 fold into run 2's line");
        String screen = Screen.draw(model, 140, 30, T0).text();
        assertTrue(screen.contains("sweep 7 lr: 3 runs  running=2  pending=1"), screen);

        keys.handle(Key.ch('j'), T0);
        assertEquals(2L, model.selectedJobId());
        keys.handle(Key.of(Key.Kind.ENTER), T0);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), rows(), "Enter on the sweep's line unfolds it");
        assertEquals(LowerPane.NONE, model.lower(), "unfolding opens no detail");
        assertTrue(!Screen.draw(model, 140, 30, T0).text().contains("sweep 7 lr:"));

        keys.handle(Key.ch('j'), T0);
        keys.handle(Key.ch('j'), T0);
        assertEquals(4L, model.selectedJobId());
        keys.handle(Key.of(Key.Kind.ENTER), T0);
        assertEquals(LowerPane.DETAIL, model.lower(), "Enter on an unfolded run is its detail");
        keys.handle(Key.of(Key.Kind.LEFT), T0);
        assertEquals(List.of(1L, 2L, 5L), rows());
        assertEquals(2L, model.selectedJobId(), "the folded line stays selected");
    }
}
