package nvidb.tui.model;

import static nvidb.tui.Fixtures.T0;
import static nvidb.tui.Fixtures.alert;
import static nvidb.tui.Fixtures.gpu;
import static nvidb.tui.Fixtures.job;
import static nvidb.tui.Fixtures.lane;
import static nvidb.tui.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Alert;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NodeState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeyBindingsTest {
    private TuiModel model;
    private KeyBindings keys;

    private final Job running = job(1, JobState.RUNNING, 0, null, null);
    private final Job laneA = job(2, JobState.PENDING, 0, "alpha:0", null);
    private final Job laneB = job(3, JobState.PENDING, 0, "alpha:0", null);
    private final Job pool = job(4, JobState.PENDING, 0, null, null);
    private final Job done = job(5, JobState.COMPLETED, 0, null, null);

    @BeforeEach
    void setUp() {
        model = new TuiModel(3);
        keys = new KeyBindings(model);
        snapshot(List.of());
    }

    private void snapshot(List<Alert> alerts) {
        model.setSnapshot(new Snapshot(T0, "/q.db", T0, 512,
                List.of(node("alpha", NodeState.UP, true, null, gpu("alpha", 0, 0, 1024, "processes")),
                        node("beta", NodeState.UP, false, null)),
                List.of(running, laneA, laneB, pool), List.of(done),
                List.of(lane("alpha:0", "alpha", List.of(), List.of(laneA, laneB))), alerts, alerts.size(), List.of(), true));
    }

    private List<Action> press(String chars, Instant at) {
        List<Action> all = new java.util.ArrayList<>();
        chars.chars().forEach(c -> all.addAll(keys.handle(Key.ch((char) c), at)));
        return all;
    }

    private List<Action> press(Key.Kind kind) {
        return keys.handle(Key.of(kind), T0);
    }

    @Test
    void theTableStartsOnTheFirstJobInDispatchOrderAndJkMoveAlongIt() {
        assertEquals(1L, model.selectedJobId());
        press("jj", T0);
        assertEquals(3L, model.selectedJobId());
        press("k", T0);
        assertEquals(2L, model.selectedJobId());
        press("G", T0);
        assertEquals(4L, model.selectedJobId(), "the active filter leaves the finished job out");
        press(Key.Kind.PAGE_UP);
        assertEquals(1L, model.selectedJobId());
    }

    @Test
    void cancelTakesTwoPressesWithinFiveSecondsAndEscAborts() {
        assertEquals(List.of(), press("c", T0));
        assertTrue(model.status().text().contains("press c again"), model.status().text());
        assertEquals(List.of(new Action.Cancel(1)), press("c", T0.plusSeconds(4)));

        press("c", T0.plusSeconds(10));
        assertEquals(List.of(), press("c", T0.plusSeconds(16)), "the second press came too late: it arms again");
        assertEquals(List.of(new Action.Cancel(1)), press("c", T0.plusSeconds(17)));

        press("c", T0.plusSeconds(30));
        keys.handle(Key.of(Key.Kind.ESC), T0.plusSeconds(31));
        assertTrue(model.status().text().contains("aborted"), model.status().text());
        assertEquals(List.of(), press("c", T0.plusSeconds(32)), "after Esc the next c arms again");
    }

    @Test
    void aFinishedJobIsNotCancelledAndSaysWhy() {
        press("f", T0); // all
        press("G", T0);
        assertEquals(5L, model.selectedJobId());
        assertEquals(List.of(), press("cc", T0));
        assertTrue(model.status().error());
        assertTrue(model.status().text().contains("completed"), model.status().text());
    }

    @Test
    void kAndJMoveAPoolJobByPriorityAndALaneJobWithinItsLane() {
        press("jjj", T0);
        assertEquals(4L, model.selectedJobId());
        assertEquals(List.of(new Action.MovePool(4, 1)), press("K", T0));
        assertEquals(List.of(new Action.MovePool(4, -1)), keys.handle(Key.of(Key.Kind.SHIFT_DOWN), T0));
        press("k", T0);
        assertEquals(3L, model.selectedJobId());
        assertEquals(List.of(new Action.MoveInLane("alpha:0", 3, 1)), press("K", T0));
        assertEquals(List.of(), press("J", T0), "already last in its lane");
        press("g", T0);
        assertEquals(List.of(), press("K", T0));
        assertTrue(model.status().error() && model.status().text().contains("running"), model.status().text());
    }

    @Test
    void priorityRequeueTickAndQuit() {
        assertEquals(List.of(new Action.Priority(1, 1), new Action.Priority(1, 1), new Action.Priority(1, -1),
                new Action.Requeue(1), new Action.Tick(), new Action.Quit(0)), press("+=-rtq", T0));
        assertEquals(List.of(new Action.Quit(130)), press(Key.Kind.CTRL_C));
    }

    @Test
    void dDrainsTheSelectedJobsNodeOrTheSelectedNodeAndResumesADrainedOne() {
        assertEquals(List.of(new Action.Drain("alpha", true)), press("d", T0));
        press(Key.Kind.TAB);
        assertEquals(Pane.NODES, model.pane());
        press("j", T0);
        assertEquals(List.of(new Action.Drain("beta", false)), press("d", T0), "beta is drained: d resumes it");
        assertEquals(List.of(), press("c", T0), "job keys want the jobs pane");
        assertTrue(model.status().error());
    }

    @Test
    void ackAllOnlyWithOpenAlerts() {
        assertEquals(List.of(), press("A", T0));
        assertEquals("no open alerts", model.status().text());
        snapshot(List.of(alert(1, "job 9 failed")));
        assertEquals(List.of(new Action.AckAll()), press("A", T0));
    }

    @Test
    void filterSortAndReverseChangeTheRowsAndTheSelectionStays() {
        press("jjj", T0);
        press("s", T0); // id
        assertEquals(SortKey.ID, model.sort());
        assertEquals(List.of(1L, 2L, 3L, 4L), ids());
        press("S", T0);
        assertEquals(List.of(4L, 3L, 2L, 1L), ids());
        assertEquals(4L, model.selectedJobId());
        press("f", T0);
        assertEquals(Filter.ALL, model.filter());
        assertEquals(List.of(5L, 4L, 3L, 2L, 1L), ids());
        press("ff", T0); // running, then pending
        assertEquals(Filter.PENDING, model.filter());
        assertEquals(List.of(4L, 3L, 2L), ids());
    }

    @Test
    void theMouseSelectsARowSortsByAHeadingAndScrolls() {
        model.setHits(new Hits(Map.of(7, 3L), Map.of(), Map.of(), List.of(new Hits.Heading(5, 10, 20, SortKey.NAME))));
        keys.handle(Key.mouse(Key.Kind.MOUSE_PRESS, 4, 7), T0);
        assertEquals(3L, model.selectedJobId());
        keys.handle(Key.mouse(Key.Kind.MOUSE_PRESS, 12, 5), T0);
        assertEquals(SortKey.NAME, model.sort());
        assertFalse(model.reversed());
        keys.handle(Key.mouse(Key.Kind.MOUSE_PRESS, 19, 5), T0);
        assertTrue(model.reversed(), "a second click on the same heading reverses");
        press("s", T0);
        press("g", T0);
        keys.handle(Key.mouse(Key.Kind.WHEEL_DOWN, 0, 0), T0);
        assertEquals(ids().get(KeyBindings.WHEEL), model.selectedJobId());
    }

    @Test
    void enterLAndEscOpenTheDetailTheLogAndCloseThem() {
        press(Key.Kind.ENTER);
        assertEquals(LowerPane.DETAIL, model.lower());
        press("L", T0);
        assertEquals(LowerPane.STDOUT, model.lower());
        press("L", T0);
        assertEquals(LowerPane.STDERR, model.lower());
        press(Key.Kind.ESC);
        assertEquals(LowerPane.NONE, model.lower());
        press("?", T0);
        assertTrue(model.help());
        assertEquals(List.of(), press("j", T0), "a key closes the help and does nothing else");
        assertFalse(model.help());
        assertEquals(1L, model.selectedJobId());
    }

    @Test
    void aJobThatLeavesTheViewHandsTheSelectionToTheRowInItsPlace() {
        press("jj", T0);
        assertEquals(3L, model.selectedJobId());
        model.setSnapshot(new Snapshot(T0, "/q.db", T0, 512, List.of(), List.of(running, laneA, pool), List.of(),
                List.of(lane("alpha:0", "alpha", List.of(), List.of(laneA))), List.of(), 0, List.of(), true));
        assertEquals(4L, model.selectedJobId());
    }

    private List<Long> ids() {
        return model.rows().stream().map(Job::id).toList();
    }
}
