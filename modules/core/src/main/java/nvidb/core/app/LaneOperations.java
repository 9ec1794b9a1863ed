package nvidb.core.app;

import java.time.Instant;
import nvidb.core.api.Caller;
import nvidb.core.api.LaneOrdering;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.LaneRunners;
import nvidb.core.api.Queue;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.view.LaneDocuments;
import nvidb.core.view.LaneView;
import nvidb.core.view.StoredJson;
import nvidb.core.view.TickView;

/**
 * {@code queue lane LANE …}: one lane's queue in running order, the ways to reorder it, what it
 * may run and its runner. {@code lane} is the lane as typed ({@code <node>:<gpu>}, a unique prefix
 * works); the lane named is the lane acted on. Each change is one write, made with the
 * {@link Caller} bound, then a pass as {@code after} says.
 */
public final class LaneOperations {
    private final Application app;

    LaneOperations(Application app) {
        this.app = app;
    }

    private Queue queue() {
        return app.queue();
    }

    /** {@code queue lane LANE}: the lane, what it runs, its queue in running order, and why it waits. */
    public LaneView.Detail show(Caller caller, String lane) {
        return LaneView.Detail.of(view(caller, lane), Instant.now());
    }

    /** The same lane as values (a front end's own text). */
    public LaneQueries.LaneView view(Caller caller, String lane) {
        return queue().laneQueries().show(lane);
    }

    /** {@code move ID --to head|tail|N}, or just {@code before} or {@code after} another queued job. */
    public LaneDocuments.Moved move(Caller caller, String lane, long id, String to, Long before, Long after,
                                    TickMode tick) {
        LaneOrdering.Moved m = Application.as(caller, () -> queue().laneOrdering().move(lane, id, to, before, after, tick));
        return new LaneDocuments.Moved(true, m.id(), m.lane(), m.position(), TickView.of(m.tick()));
    }

    /** {@code swap A B}: two queued jobs trade places. */
    public LaneDocuments.Swapped swap(Caller caller, String lane, long a, long b, TickMode after) {
        LaneOrdering.Swapped s = Application.as(caller, () -> queue().laneOrdering().swap(lane, a, b, after));
        return new LaneDocuments.Swapped(true, s.lane(), s.order(), TickView.of(s.tick()));
    }

    /** {@code skip}: the next job goes to the back ({@code skipped} null when there was nothing to skip past). */
    public LaneDocuments.Skipped skip(Caller caller, String lane, TickMode after) {
        LaneOrdering.Skipped s = Application.as(caller, () -> queue().laneOrdering().skip(lane, after));
        return new LaneDocuments.Skipped(true, s.lane(), s.skipped(), s.skipped() == null ? null : s.order(),
                TickView.of(s.tick()));
    }

    /** {@code assign ID [--at head|tail|N]}: a queued job goes into the lane. */
    public LaneDocuments.Assigned assign(Caller caller, String lane, long id, String at, TickMode after) {
        LaneOrdering.Assigned a = Application.as(caller, () -> queue().laneOrdering().assign(lane, id, at, after));
        return new LaneDocuments.Assigned(true, a.id(), a.lane(), a.previous(), a.position(), TickView.of(a.tick()));
    }

    /** {@code assign ID --none}: the job leaves the lane for the free pool, pinned to no node. */
    public LaneDocuments.Assigned unassign(Caller caller, String lane, long id, TickMode after) {
        LaneOrdering.Assigned a = Application.as(caller, () -> queue().laneOrdering().unassign(lane, id, after));
        return new LaneDocuments.Assigned(true, a.id(), a.lane(), a.previous(), null, TickView.of(a.tick()));
    }

    /** {@code pause} (true: start no new job; one running is left alone) or {@code resume} (false). */
    public LaneDocuments.Changed pause(Caller caller, String lane, boolean pause, TickMode after) {
        LaneOrdering.Switched s = Application.as(caller, () -> pause ? queue().laneOrdering().pause(lane, after)
                : queue().laneOrdering().resume(lane, after));
        return changed(s.lane(), s.tick());
    }

    /** {@code concurrency N}: how many of the lane's jobs may run at once. */
    public LaneDocuments.Concurrency concurrency(Caller caller, String lane, int n) {
        LaneRecord l = Application.as(caller, () -> queue().laneOrdering().concurrency(lane, n));
        return new LaneDocuments.Concurrency(true, laneView(l));
    }

    /** {@code runner [status]}: whether the lane's runner is on and up, its pid, what it runs and has staged. */
    public LaneDocuments.Runner runner(Caller caller, String lane) {
        LaneRunners.RunnerStatus r = queue().laneRunners().runner(lane);
        return new LaneDocuments.Runner(r.lane().name(), r.lane().runner(), r.up(), r.pid(), r.running(), r.staged(),
                r.waiting(), Times.iso(r.lane().runnerSeenAt()), StoredJson.parsed(r.lane().runnerStateJson()),
                r.blocked());
    }

    /** What {@code runner on|off} did: the lane's document, and whether a runner was told to stop. */
    public record RunnerSwitched(LaneDocuments.Changed document, boolean stopped) {
    }

    /** {@code runner on} (a runner drives the lane) or {@code runner off} (the scheduler starts its jobs). */
    public RunnerSwitched setRunner(Caller caller, String lane, boolean on, TickMode after) {
        LaneRunners.RunnerControl c = Application.as(caller, () -> queue().laneRunners().setRunner(lane, on, after));
        return new RunnerSwitched(changed(c.lane(), c.tick()), c.stopped());
    }

    /** {@code runner stop [--hard]}: staged work withdrawn, the runner stopped (now, with {@code hard}). */
    public LaneDocuments.RunnerStopped stopRunner(Caller caller, String lane, boolean hard) {
        return stopped(Application.as(caller, () -> queue().laneRunners().stop(lane, hard)));
    }

    /** {@code runner restart [--hard]}: the runner replaced; the new one adopts the running job. */
    public LaneDocuments.RunnerStopped restartRunner(Caller caller, String lane, boolean hard, TickMode after) {
        return stopped(Application.as(caller, () -> queue().laneRunners().restart(lane, hard, after)));
    }

    /** The reference's stop and restart name the lane ({@code {"lane": "box:0", "stopped", "hard"}}). */
    private static LaneDocuments.RunnerStopped stopped(LaneRunners.RunnerControl c) {
        return new LaneDocuments.RunnerStopped(true, c.lane().name(), c.stopped(), c.hard(), TickView.of(c.tick()));
    }

    private LaneDocuments.Changed changed(LaneRecord lane, TickSummary tick) {
        return new LaneDocuments.Changed(true, laneView(lane), TickView.of(tick));
    }

    /** The lane's own record, with whether its runner answered lately. */
    private LaneView laneView(LaneRecord lane) {
        return LaneView.of(lane, queue().laneQueries().runnerUp(lane, Instant.now()));
    }
}
