package nvidb.cli.commands;

import nvidb.cli.output.LaneViews;
import nvidb.core.api.Ids;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.app.LaneOperations;
import nvidb.core.view.LaneDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code queue lane LANE [SUB]}: one lane's queue in running order, and the ways to reorder it.
 * Every change is one database write — instant, and fine while the node is unreachable. The lane
 * named is the lane acted on: a job that is not queued in it is refused.
 */
@Command(name = "lane", mixinStandardHelpOptions = true, description = {
        "One lane's queue, in running order (LANE is <node>:<gpu>; prefixes work).",
        "Positions are 1-based over the queued jobs; a running job cannot be reordered."},
        subcommands = {QueueLane.Move.class, QueueLane.Swap.class, QueueLane.Skip.class, QueueLane.Assign.class,
                QueueLane.Pause.class, QueueLane.Resume.class, QueueLane.Concurrency.class, QueueLane.Runner.class})
public final class QueueLane extends BaseCommand {
    @Parameters(index = "0", paramLabel = "LANE", description = "The lane, <node>:<gpu> (exact, case-insensitive, or unique prefix).")
    String lane;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        ctx().app().tick(ctx().caller(), tick.read());
        if (json()) {
            out().document(ctx().app().laneOps().show(ctx().caller(), lane));
        } else {
            out().line(LaneViews.detail(ctx().app().laneOps().view(ctx().caller(), lane), now()));
        }
        return 0;
    }

    /** What the subcommands share: the lane their parent named. */
    abstract static class Sub extends BaseCommand {
        @ParentCommand
        QueueLane parent;

        LaneOperations ops() {
            return ctx().app().laneOps();
        }

        Caller caller() {
            return ctx().caller();
        }

        String lane() {
            return parent.lane;
        }

        /**
         * What a change of the lane's settings prints: its document ({@code {ok, lane, [stopped,
         * hard,] tick}}) with {@code --json}, else one sentence about the lane.
         */
        int changed(Object document, String lane, String sentence) {
            if (json()) {
                out().document(document);
            } else {
                out().line("lane " + lane + sentence);
            }
            return 0;
        }
    }

    @Command(name = "move", mixinStandardHelpOptions = true, description = {
            "Move a queued job of this lane: --to head|tail|N, or --before/--after another queued job.",
            "N is 1-based over the queued jobs (1 = next to run); out of range goes to the end."})
    public static final class Move extends Sub {
        @Parameters(index = "0", paramLabel = "ID", description = "The job to move.")
        String id;

        @Option(names = "--to", paramLabel = "head|tail|N", converter = NonBlank.class, description = "The slot to move it to.")
        String to;

        @Option(names = "--before", paramLabel = "ID", description = "Just before this queued job.")
        String before;

        @Option(names = "--after", paramLabel = "ID", description = "Just after this queued job.")
        String after;

        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            LaneDocuments.Moved m = ops().move(caller(), lane(), Ids.parse(id), to, before == null ? null
                    : Ids.parse(before), after == null ? null : Ids.parse(after), tick.after());
            if (json()) {
                out().document(m);
            } else {
                out().line("job " + m.id() + " is now #" + m.position() + " in " + m.lane());
            }
            return 0;
        }
    }

    @Command(name = "swap", mixinStandardHelpOptions = true, description = "Swap two queued jobs of this lane.")
    public static final class Swap extends Sub {
        @Parameters(index = "0", paramLabel = "A", description = "One job.")
        String a;

        @Parameters(index = "1", paramLabel = "B", description = "The other job.")
        String b;

        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            long x = Ids.parse(a);
            long y = Ids.parse(b);
            LaneDocuments.Swapped s = ops().swap(caller(), lane(), x, y, tick.after());
            if (json()) {
                out().document(s);
            } else {
                out().line("swapped jobs " + x + " and " + y + " in " + s.lane());
            }
            return 0;
        }
    }

    @Command(name = "skip", mixinStandardHelpOptions = true, description = {
            "Send the next job to the back of the lane (also the way past a held head)."})
    public static final class Skip extends Sub {
        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            LaneDocuments.Skipped s = ops().skip(caller(), lane(), tick.after());
            if (json()) {
                out().document(s);
            } else if (s.skipped() == null) {
                out().line("lane " + s.lane() + " has nothing to skip past");
            } else {
                out().line("job " + s.skipped() + " moved to the back of " + s.lane());
            }
            return 0;
        }
    }

    @Command(name = "assign", mixinStandardHelpOptions = true, description = {
            "Put a queued job into this lane (its node pin becomes the lane's node), or take it out with --none.",
            "A job taken out waits in the free pool, pinned to no node."})
    public static final class Assign extends Sub {
        @Parameters(index = "0", paramLabel = "ID", description = "The job.")
        String id;

        @Option(names = "--at", paramLabel = "head|tail|N", converter = NonBlank.class, description = "Where in the lane (default tail).")
        String at;

        @Option(names = "--none", description = "Take the job out of this lane.")
        boolean none;

        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            if (none && at != null) {
                throw NvidbException.usage("--at places a job in the lane; it makes no sense with --none");
            }
            long job = Ids.parse(id);
            LaneDocuments.Assigned a = none ? ops().unassign(caller(), lane(), job, tick.after())
                    : ops().assign(caller(), lane(), job, at, tick.after());
            if (json()) {
                out().document(a);
            } else if (none) {
                out().line("job " + a.id() + " left lane " + a.previous());
            } else {
                out().line("job " + a.id() + " queued in " + a.lane() + " at #" + a.position());
            }
            return 0;
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true, description = {
            "Stop starting new jobs in this lane; a job already running is left alone."})
    public static final class Pause extends Sub {
        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            LaneDocuments.Changed s = ops().pause(caller(), lane(), true, tick.after());
            return changed(s, s.lane().name(), " paused; jobs already running are left alone");
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Let a paused lane start jobs again.")
    public static final class Resume extends Sub {
        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            LaneDocuments.Changed s = ops().pause(caller(), lane(), false, tick.after());
            return changed(s, s.lane().name(), " resumed");
        }
    }

    @Command(name = "concurrency", mixinStandardHelpOptions = true, description = {
            "How many of this lane's jobs may run at once (default 1: strictly one after another)."})
    public static final class Concurrency extends Sub {
        @Parameters(index = "0", paramLabel = "N", description = "At least 1.")
        String n;

        @Override
        protected int execute() {
            int value;
            try {
                value = Integer.parseInt(n.strip());
            } catch (NumberFormatException e) {
                throw NvidbException.usage("concurrency takes a whole number of jobs ≥ 1 (got '" + n + "')");
            }
            LaneDocuments.Concurrency c = ops().concurrency(caller(), lane(), value);
            if (json()) {
                out().document(c);
            } else {
                out().line("lane " + c.lane().name() + " runs up to " + c.lane().concurrency() + " job(s) at once");
            }
            return 0;
        }
    }

    @Command(name = "runner", mixinStandardHelpOptions = true, description = {
            "The lane's runner on its node, which starts each job the moment the previous one exits.",
            "  runner [status]       up? its pid, what it runs, what is staged (exit 1 when on but not up)",
            "  runner on | off       let a runner drive the lane, or have the scheduler start its jobs",
            "  runner stop [--hard]  withdraw staged work and stop it (--hard: terminate it now)",
            "  runner restart [--hard]  replace it; the new one adopts the running job",
            "No action ever signals a job."})
    public static final class Runner extends Sub {
        @Parameters(index = "0", arity = "0..1", paramLabel = "ACTION",
                description = "status (default), on, off, stop or restart.")
        String action;

        @Option(names = "--hard", description = "stop/restart: terminate the runner now instead of at its next safe point.")
        boolean hard;

        @Mixin
        TickOptions tick;

        @Override
        protected int execute() {
            String a = action == null ? "status" : action.strip().toLowerCase(java.util.Locale.ROOT);
            if (hard && !a.equals("stop") && !a.equals("restart")) {
                throw NvidbException.usage("--hard goes with `runner stop` or `runner restart`, not `runner " + a + "`");
            }
            switch (a) {
                case "status" -> {
                    return status();
                }
                case "on", "off" -> {
                    LaneOperations.RunnerSwitched c = ops().setRunner(caller(), lane(), a.equals("on"), tick.read());
                    return changed(c.document(), c.document().lane().name(), ": " + (a.equals("on") ? "runner on"
                            : "runner off" + (c.stopped() ? "; the runner stops once its job is done" : "")));
                }
                case "stop" -> {
                    LaneDocuments.RunnerStopped c = ops().stopRunner(caller(), lane(), hard);
                    return changed(c, c.lane(), ": " + (c.stopped() ? (hard ? "runner terminated"
                            : "runner told to stop once its job is done") : "no runner was running"));
                }
                case "restart" -> {
                    LaneDocuments.RunnerStopped c = ops().restartRunner(caller(), lane(), hard, tick.read());
                    return changed(c, c.lane(), ": " + (c.stopped() ? "runner replaced" + (hard ? " (terminated)" : "")
                            + "; jobs it started keep running under the new one"
                            : "no runner was running; one starts when the lane has work"));
                }
                default -> throw NvidbException.usage("unknown runner action '" + action
                        + "'; use status, on, off, stop or restart");
            }
        }

        private int status() {
            ctx().app().tick(caller(), tick.read());
            LaneDocuments.Runner r = ops().runner(caller(), lane());
            boolean enabled = r.enabled();
            if (json()) {
                out().document(r);
            } else if (!enabled) {
                out().line("lane " + r.lane() + ": runner off (the scheduler starts this lane's jobs)");
            } else if (r.up()) {
                out().line("lane " + r.lane() + ": runner up, pid " + r.pid() + "; running "
                        + (r.running().isEmpty() ? "nothing" : "job " + join(r.running())) + "; staged "
                        + (r.staged().isEmpty() ? "nothing" : "job " + join(r.staged()))
                        + (r.waiting() == null ? "" : "; waiting: " + r.waiting()));
            } else {
                out().line("lane " + r.lane() + ": no runner up" + (r.seen() == null ? ""
                        : " (last seen " + r.seen() + ")")
                        + (r.blocked() == null ? "" : "; " + r.blocked()));
            }
            return enabled && !r.up() ? 1 : 0;
        }

        private static String join(java.util.List<Long> ids) {
            return String.join(", ", ids.stream().map(String::valueOf).toList());
        }
    }
}
