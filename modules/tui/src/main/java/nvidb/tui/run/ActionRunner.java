package nvidb.tui.run;

import java.util.List;
import nvidb.core.api.Caller;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.app.Application;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.LaneDocuments;
import nvidb.tui.model.Action;

/**
 * Carries out an {@link Action} with the core operation its CLI command uses, and says what
 * happened in the words the CLI prints. The database part runs here with no pass ({@code
 * TickMode.NONE}); where the CLI command passes afterwards, {@link #passAfter} says so and the
 * caller has the pass made on the worker that talks to nodes.
 */
final class ActionRunner {
    private ActionRunner() {
    }

    /** Whether the CLI command behind {@code a} makes a pass after its change. */
    static boolean passAfter(Action a) {
        return a instanceof Action.Requeue || a instanceof Action.MoveInLane
                || (a instanceof Action.Drain d && !d.drain());
    }

    /** Whether {@code a} talks to nodes itself (so runs on the node worker). */
    static boolean touchesNodes(Action a) {
        return a instanceof Action.Tick || a instanceof Action.Drain;
    }

    /** Runs {@code a}; returns the status line's text. Throws what the operation throws. */
    static String run(Session s, Action a) {
        Application app = s.app();
        Caller by = s.caller();
        return switch (a) {
            case Action.Cancel c -> cancelled(app.cancel(by, List.of(c.id())).document().results().getFirst());
            case Action.Requeue r -> requeued(app.requeue(by, List.of(r.id()), TickMode.NONE).document().results().getFirst());
            case Action.Priority p -> {
                JobDocuments.Priority j = app.priority(by, p.id(), (p.delta() > 0 ? "+" : "") + p.delta());
                yield "job " + j.id() + " priority " + j.priority();
            }
            case Action.MovePool m -> moved(app.movePriority(by, m.id(), m.slots()));
            case Action.MoveInLane m -> {
                LaneDocuments.Moved moved = app.laneOps().move(by, m.lane(), m.id(), String.valueOf(m.position()), null,
                        null, TickMode.NONE);
                yield "job " + moved.id() + " is now #" + moved.position() + " in " + moved.lane();
            }
            case Action.Drain d -> {
                String node = app.drain(by, d.node(), d.drain()).node();
                yield "node " + node + (d.drain() ? " drained" : " resumed");
            }
            case Action.AckAll x -> app.ack(by, List.of(), true).document().acknowledged() + " alert(s) acknowledged";
            case Action.Tick t -> tick(app.tick(by, TickMode.FORCE));
            case Action.Quit x -> "";
        };
    }

    static String tick(TickSummary t) {
        if (t.skippedReason() != null) {
            return "pass skipped: " + t.skippedReason();
        }
        return "pass: nodes up " + t.nodesUp() + ", down " + t.nodesDown() + "; started " + t.dispatched().size()
                + ", finished " + t.finished().size() + (t.errors().isEmpty() ? "" : "; errors " + t.errors().size());
    }

    private static String cancelled(JobDocuments.Cancelled c) {
        long id = c.item().id();
        return c.cancelled() ? "job " + id + " cancelled" : "job " + id + " is " + c.item().state() + "; nothing cancelled";
    }

    private static String requeued(JobDocuments.Requeued r) {
        long id = r.item().id();
        return r.requeued() ? "job " + id + " requeued" : "job " + id + " is " + r.item().state() + "; not requeued";
    }

    private static String moved(JobDocuments.Moved m) {
        return m.moved() ? "job " + m.id() + " is now #" + m.slot() + " in the dispatch order (priority " + m.priority() + ")"
                : "job " + m.id() + " stays #" + m.slot() + " in the dispatch order";
    }
}
