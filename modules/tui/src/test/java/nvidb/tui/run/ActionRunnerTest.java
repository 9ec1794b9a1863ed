package nvidb.tui.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.QueueAccess;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.TickMode;
import nvidb.tui.model.Action;
import nvidb.tui.model.DispatchOrder;
import nvidb.tui.model.Snapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TUI's actions and snapshot on a real queue (a SQLite file), through the same operations as the CLI. */
class ActionRunnerTest {
    @TempDir
    Path tmp;
    QueueAccess access;
    Queue q;
    Session s;

    @BeforeEach
    void open() throws Exception {
        Path home = tmp.resolve(".nvidb");
        Files.createDirectories(home);
        Files.writeString(home.resolve("queue.yml"), "queue:\n  job_root: " + tmp.resolve("jobs") + "\n");
        access = QueueAccess.open(Map.of("HOME", tmp.toString(), "NVIDB_HOME", home.toString(),
                "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")), null, true, h -> List.of());
        q = access.queue();
        s = new Session(new nvidb.core.app.Application(access),
                nvidb.core.api.Caller.of(nvidb.core.api.Caller.FrontEnd.TUI, "tester-tui"));
    }

    @AfterEach
    void close() {
        access.close();
    }

    private long submit(String name) {
        return q.jobCommands().submit(new SubmitRequest(name, "sleep 60", null, null, 0, 0, null, null, null, null, null,
                null, null, 0, null, "tester", null, null), TickMode.NONE).job().id();
    }

    private List<Long> pendingOrder() {
        Snapshot snap = SnapshotReader.read(s);
        return DispatchOrder.of(snap.active(), snap.lanes()).stream().filter(j -> j.state() == JobState.PENDING)
                .map(Job::id).toList();
    }

    @Test
    void movingPriorityAndCancellingChangeTheQueueAsTheCliWould() {
        long a = submit("a");
        long b = submit("b");
        long c = submit("c");
        assertEquals(List.of(a, b, c), pendingOrder());
        assertEquals("job " + c + " is now #1 in the dispatch order (priority 0)", ActionRunner.run(s, new Action.MovePool(c, 2)));
        assertEquals(List.of(c, a, b), pendingOrder());
        // The move lowered a and b to -1 (priorities never rise); +1 brings b back level with c, ahead by id.
        assertEquals("job " + b + " priority 0", ActionRunner.run(s, new Action.Priority(b, 1)));
        assertEquals(List.of(b, c, a), pendingOrder());
        assertEquals("job " + a + " cancelled", ActionRunner.run(s, new Action.Cancel(a)));
        assertEquals(JobState.CANCELLED, q.jobQueries().job(a).state());
        // The cancel came through the application layer as the TUI: its event records who asked.
        nvidb.core.api.Event cancel = q.jobQueries().events(null, a, 50).events().stream()
                .filter(e -> e.kind().equals("job_cancelled")).findFirst().orElseThrow();
        assertEquals(new nvidb.core.api.Event.By(System.getProperty("user.name"), "tester-tui", "tui"), cancel.by());
        // The submit above went straight to core, as no front end does: nobody is recorded.
        assertNull(q.jobQueries().events(null, a, 50).events().getFirst().by());
        assertEquals("job " + a + " requeued", ActionRunner.run(s, new Action.Requeue(a)));
        assertTrue(ActionRunner.passAfter(new Action.Requeue(a)), "requeue is followed by a pass, as on the CLI");
        assertEquals("0 alert(s) acknowledged", ActionRunner.run(s, new Action.AckAll()));
    }

    @Test
    void aRefusedActionThrowsTheCoresErrorForTheStatusLine() {
        NvidbException e = assertThrows(NvidbException.class, () -> ActionRunner.run(s, new Action.Priority(999, 1)));
        assertEquals(ErrorCode.NOT_FOUND, e.code());
        assertEquals(e.getMessage(), Controller.message(e));
        long a = submit("a");
        q.jobCommands().cancel(List.of(a));
        NvidbException moved = assertThrows(NvidbException.class, () -> ActionRunner.run(s, new Action.MovePool(a, 1)));
        assertTrue(moved.getMessage().contains("only pending jobs"), moved.getMessage());
    }

    @Test
    void theSnapshotHoldsActiveAndFinishedJobsAndTheDatabasePath() {
        long a = submit("a");
        long b = submit("b");
        q.jobCommands().cancel(List.of(b));
        Snapshot snap = SnapshotReader.read(s);
        assertEquals(List.of(a), snap.active().stream().map(Job::id).toList());
        assertEquals(List.of(b), snap.finished().stream().map(Job::id).toList());
        assertTrue(snap.database().endsWith("queue.db"), snap.database());
        assertEquals(0, snap.openAlertCount());
    }
}
