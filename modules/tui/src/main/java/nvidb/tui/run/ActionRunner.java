package nvidb.tui.run;

import java.util.List;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobEdits;
import nvidb.core.api.LaneOrdering;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.Queue;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
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
    static String run(Queue q, Action a) {
        return switch (a) {
            case Action.Cancel c -> cancelled(q.jobCommands().cancel(List.of(c.id())).getFirst());
            case Action.Requeue r -> requeued(q.jobCommands().requeue(List.of(r.id()), TickMode.NONE).results().getFirst());
            case Action.Priority p -> {
                Job j = q.jobEdits().setPriority(p.id(), (p.delta() > 0 ? "+" : "") + p.delta());
                yield "job " + j.id() + " priority " + j.priority();
            }
            case Action.MovePool m -> moved(q.jobEdits().movePriority(m.id(), m.slots()));
            case Action.MoveInLane m -> {
                LaneOrdering.Moved moved = q.laneOrdering().move(m.lane(), m.id(), String.valueOf(m.position()), null,
                        null, TickMode.NONE);
                yield "job " + moved.id() + " is now #" + moved.position() + " in " + moved.lane();
            }
            case Action.Drain d -> {
                NodeRecord n = q.nodeAdmin().setDrained(d.node(), d.drain());
                yield "node " + n.name() + (d.drain() ? " drained" : " resumed");
            }
            case Action.AckAll x -> {
                JobCommands.AckResult r = q.jobCommands().acknowledge(List.of(), true);
                yield r.acknowledged() + " alert(s) acknowledged";
            }
            case Action.Tick t -> tick(q.tick(TickMode.FORCE));
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

    private static String cancelled(JobCommands.Cancelled c) {
        return c.cancelled() ? "job " + c.id() + " cancelled" : "job " + c.id() + " is " + c.state() + "; nothing cancelled";
    }

    private static String requeued(JobCommands.Requeued r) {
        return r.requeued() ? "job " + r.id() + " requeued" : "job " + r.id() + " is " + r.state() + "; not requeued";
    }

    private static String moved(JobEdits.Moved m) {
        return m.moved() ? "job " + m.id() + " is now #" + m.slot() + " in the dispatch order (priority " + m.priority() + ")"
                : "job " + m.id() + " stays #" + m.slot() + " in the dispatch order";
    }
}
