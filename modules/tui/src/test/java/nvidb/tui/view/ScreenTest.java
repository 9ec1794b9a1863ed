package nvidb.tui.view;

import static nvidb.tui.Fixtures.T0;
import static nvidb.tui.Fixtures.alert;
import static nvidb.tui.Fixtures.gpu;
import static nvidb.tui.Fixtures.job;
import static nvidb.tui.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import nvidb.core.api.Alert;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NodeState;
import nvidb.tui.model.Key;
import nvidb.tui.model.KeyBindings;
import nvidb.tui.model.Snapshot;
import nvidb.tui.model.SortKey;
import nvidb.tui.model.TuiModel;
import org.junit.jupiter.api.Test;

class ScreenTest {
    private final Job running = job(1, "train", JobState.RUNNING, 0, null, null, null, List.of());
    private final Job held = job(2, "eval", JobState.PENDING, 0, null, null, "dependency 9 failed", List.of(9L));
    private final Job waiting = job(3, "sweep", JobState.PENDING, 0, null, null, null, List.of(1L));

    private TuiModel model(List<Alert> alerts) {
        TuiModel m = new TuiModel(3);
        m.setSnapshot(new Snapshot(T0, "/q.db", T0.minusSeconds(5), 512,
                List.of(node("alpha", NodeState.UP, true, null, gpu("alpha", 0, 12288, 6144, "processes")),
                        node("beta", NodeState.DOWN, true, "ssh: connect to host beta port 22: Connection refused",
                                gpu("beta", 0, 0, 0, "blind"))),
                List.of(running, held, waiting), List.of(), List.of(), alerts, alerts.size(), List.of(), true));
        return m;
    }

    @Test
    void nodeCardsShowStateErrorsAndBarsInThreeSegments() {
        Frame f = Screen.draw(model(List.of()), 145, 30, T0);
        String text = f.text();
        assertEquals(30, f.lines().size());
        assertTrue(text.contains(" alpha  [up]"), text);
        assertTrue(text.contains(" beta  [down]  beta.lan  ! ssh: connect to host beta port 22: Connection refused"), text);
        // 24 GiB in 40 cells: half held by others, a quarter reserved by the queue, a quarter free.
        String bar = "#".repeat(20) + "=".repeat(10) + ".".repeat(10);
        assertTrue(text.contains("[" + bar + "] other 12.0G  queue 6.0G  free 5.5G/24.0G  45% 51C"), text);
        assertTrue(text.contains("attribution: blind"), text);
    }

    @Test
    void theJobTableIsInDispatchOrderAndHeldJobsSayTheyAreHeld() {
        Frame f = Screen.draw(model(List.of()), 140, 30, T0.plusSeconds(65));
        List<String> rows = f.lines().stream().map(Line::text).filter(l -> l.matches("^[> ] \\d.*")).toList();
        assertEquals(3, rows.size(), f.text());
        assertTrue(rows.get(0).startsWith("> 1      running   0    train              alpha:0"), rows.get(0));
        assertTrue(rows.get(1).contains("held") && rows.get(1).contains("held: dependency 9 failed"), rows.get(1));
        assertTrue(rows.get(2).contains("pending") && rows.get(2).contains("after 1"), rows.get(2));
        assertTrue(rows.get(0).contains("tester@box:1"), "the submitter shows: " + rows.get(0));
        assertTrue(rows.get(0).contains(" 1m "), "age since submission: " + rows.get(0));
    }

    @Test
    void openAlertsLeadTheScreenAndTheCountersSayWhatRuns() {
        Frame f = Screen.draw(model(List.of(alert(4, "job 9 failed (exit 1)"))), 120, 30, T0);
        assertTrue(f.lines().get(0).text().contains("running 1 . pending 1 . held 1"), f.lines().get(0).text());
        assertTrue(f.lines().get(1).text().startsWith(" ALERTS  1 open"), f.text());
        assertTrue(f.lines().get(2).text().contains("#4 error job_failed  job 9 failed (exit 1)"), f.text());
    }

    @Test
    void everyRowHasTheFrameWidthAtMostAndAClickFindsWhatWasDrawn() {
        TuiModel m = model(List.of());
        for (int width : List.of(40, 80, 200)) {
            Frame f = Screen.draw(m, width, 12, T0);
            assertEquals(12, f.lines().size());
            f.lines().forEach(l -> assertTrue(l.width() < width, "a row as wide as the screen: " + l.text()));
        }
        Frame f = Screen.draw(m, 140, 30, T0);
        int headingRow = f.hits().headings().getFirst().row();
        assertTrue(f.lines().get(headingRow).text().contains("ID     STATE"), f.lines().get(headingRow).text());
        int nameAt = f.lines().get(headingRow).text().indexOf("NAME");
        assertEquals(SortKey.NAME, f.hits().headingAt(nameAt, headingRow));
        f.hits().jobRows().forEach((row, id) -> assertTrue(f.lines().get(row).text().startsWith((id == 1 ? "> " : "  ") + id),
                row + ": " + f.lines().get(row).text()));
        assertEquals(3, f.hits().jobRows().size());
    }

    @Test
    void theStatusLineCarriesAnActionsErrorAndTheHelpListsTheKeys() {
        TuiModel m = model(List.of());
        KeyBindings keys = new KeyBindings(m);
        keys.handle(Key.ch('j'), T0);
        keys.handle(Key.ch('c'), T0);
        keys.handle(Key.ch('c'), T0);
        String last = Screen.draw(m, 120, 20, T0).lines().getLast().text();
        assertTrue(last.contains("held") || last.contains("cancel"), last);
        keys.handle(Key.ch('?'), T0);
        String help = Screen.draw(m, 120, 30, T0).text();
        assertTrue(help.contains("c c") && help.contains("cancel the selected job"), help);
        assertFalse(help.contains("ID     STATE"), "the help takes the table's place");
    }

    @Test
    void anyTerminalSizeGetsAFrameOfExactlyThatSize() {
        TuiModel m = model(List.of(alert(1, "x")));
        KeyBindings keys = new KeyBindings(m);
        for (char mode : new char[] {'.', 'L', '?'}) {
            keys.handle(Key.ch(mode), T0);
            for (int w = 1; w <= 60; w += 7) {
                for (int h = 1; h <= 14; h++) {
                    Frame f = Screen.draw(m, w, h, T0);
                    assertEquals(h, f.lines().size(), w + "x" + h + " " + mode);
                }
            }
            keys.handle(Key.of(Key.Kind.ESC), T0);
        }
    }

    @Test
    void aJobsDetailSaysWhatWasMeasuredAndWhereItsReservationCameFrom() {
        Job r = running;
        Job measured = new Job(r.id(), r.name(), r.state(), r.command(), r.workdir(), r.env(), r.priority(), r.gpus(),
                r.vramMb(), r.nodeConstraint(), r.dependsOn(), r.dependsAny(), r.maxRuntimeS(), r.submitter(), r.tags(),
                r.createdAt(), r.updatedAt(), r.startedAt(), r.finishedAt(), r.node(), r.gpuIds(), r.lane(), r.laneSeq(),
                r.remotePid(), r.remotePgid(), r.runDir(), r.exitCode(), r.attempt(), r.maxRetries(), r.lastError(),
                r.heartbeatAt(), 9000, r.resultJson(), r.notes(), r.progress(), r.progressAt(), r.heldReason(),
                r.idempotencyKey(), new Job.Learned(18226, 126.0, 2, null, null, null,
                        "{\"kind\":\"learned\",\"jobs\":[12,15,19],\"peak_mb\":18200}", null, 1, 0), null, null);
        String text = LowerView.lines(nvidb.tui.model.LowerPane.DETAIL, measured, null, null, null, java.util.Map.of(), 0,
                120, 12, T0).stream().map(Line::text).reduce("", (a, b) -> a + b + "\n");
        assertTrue(text.contains("used 8.8G  (peak 17.8G, mean util 63 %)"), text);
        assertTrue(text.contains(" vram: learned from jobs 12, 15, 19: 95th-percentile peak 17.8G plus margin"), text);
    }

    @Test
    void foreignTextCannotReachTheTerminalAsControlCharacters() {
        assertEquals("bad?[2Jname", Text.clean("bad\u001b[2Jname"));
        assertEquals("100%", Text.clean("10%\r50%\r100%"));
        assertEquals(4, Text.width("训练"));
        assertEquals("训…", Text.cut("训练任务", 3));
        assertEquals("ab  ", Text.fit("ab", 4));
    }

    @Test
    void severalUsersGetALineAndAJobAQuotaHoldsSaysWhy() {
        Job r = job(4, "big", JobState.PENDING, 0, null, null, null, List.of());
        Job quota = new Job(r.id(), r.name(), r.state(), r.command(), r.workdir(), r.env(), r.priority(), r.gpus(),
                r.vramMb(), r.nodeConstraint(), r.dependsOn(), r.dependsAny(), r.maxRuntimeS(), r.submitter(), r.tags(),
                r.createdAt(), r.updatedAt(), r.startedAt(), r.finishedAt(), r.node(), r.gpuIds(), r.lane(), r.laneSeq(),
                r.remotePid(), r.remotePgid(), r.runDir(), r.exitCode(), r.attempt(), r.maxRetries(), r.lastError(),
                r.heartbeatAt(), r.gpuMemMb(), r.resultJson(), r.notes(), r.progress(), r.progressAt(), r.heldReason(),
                r.idempotencyKey(), r.learned(), "alice", "quota: alice runs 4 of 4 GPUs");
        List<nvidb.core.api.UserStanding> users = List.of(
                new nvidb.core.api.UserStanding("alice", 1, 50, 12.5, 96, 4, 2, 10, 4, null, null, null),
                new nvidb.core.api.UserStanding("bob", 1, 50, 0.5, 4, 0, 0, 1, null, null, null, null));
        TuiModel m = new TuiModel(3);
        m.setSnapshot(new Snapshot(T0, "/q.db", T0, 512, List.of(), List.of(running, quota), List.of(), List.of(),
                List.of(), 0, users, true));
        Frame f = Screen.draw(m, 160, 30, T0);
        String text = f.text();
        assertTrue(text.contains(" users  alice 4 GPUs 10 waiting, used 96% for a 50% share  bob 0 GPUs 1 waiting,"
                + " used 4% for a 50% share"), text);
        String row = f.lines().stream().map(Line::text).filter(l -> l.matches("^[> ] 4 .*")).findFirst().orElseThrow();
        assertTrue(row.contains("quota: alice runs 4 of 4 GPUs"), row);
        assertEquals("quota: alice runs 4 of 4 GPUs", quota.waiting());

        TuiModel one = new TuiModel(3);
        one.setSnapshot(new Snapshot(T0, "/q.db", T0, 512, List.of(), List.of(running), List.of(), List.of(),
                List.of(), 0, users.subList(0, 1), true));
        assertFalse(Screen.draw(one, 160, 30, T0).text().contains(" users "), "one user: no line");
    }
}
