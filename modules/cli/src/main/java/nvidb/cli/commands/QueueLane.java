package nvidb.cli.commands;

import nvidb.cli.output.LaneViews;
import nvidb.core.api.Ids;
import nvidb.core.api.LaneOrdering;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.LaneRunners;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.view.LaneDocuments;
import nvidb.core.view.LaneView;
import nvidb.core.view.StoredJson;
import nvidb.core.view.TickView;
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
        service().tick(tick.read());
        LaneQueries.LaneView v = service().laneQueries().show(lane);
        if (json()) {
            out().document(LaneView.Detail.of(v, now()));
        } else {
            out().line(LaneViews.detail(v, now()));
        }
        return 0;
    }

    /** What the subcommands share: the lane their parent named. */
    abstract static class Sub extends BaseCommand {
        @ParentCommand
        QueueLane parent;

        LaneOrdering ordering() {
            return service().laneOrdering();
        }

        LaneRunners runners() {
            return service().laneRunners();
        }

        String lane() {
            return parent.lane;
        }

        /** The lane as JSON, with whether its runner answered lately. */
        LaneView laneJson(LaneRecord lane) {
            return LaneView.of(lane, service().laneQueries().runnerUp(lane, java.time.Instant.now()));
        }

        /**
         * What a change of the lane's settings prints: {@code {ok, lane, [stopped, hard,] tick}}
         * with {@code --json}, else one sentence.
         */
        int changed(LaneRecord lane, TickSummary tick, String sentence, Boolean stopped, Boolean hard) {
            if (json()) {
                // The reference's stop and restart name the lane ({"lane": "box:0", "stopped", "hard"}).
                out().document(stopped == null ? new LaneDocuments.Changed(true, laneJson(lane), TickView.of(tick))
                        : new LaneDocuments.RunnerStopped(true, lane.name(), stopped, hard, TickView.of(tick)));
            } else {
                out().line("lane " + lane.name() + sentence);
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
            LaneOrdering.Moved m = ordering().move(lane(), Ids.parse(id), to, before == null ? null : Ids.parse(before),
                    after == null ? null : Ids.parse(after), tick.after());
            if (json()) {
                out().document(new LaneDocuments.Moved(true, m.id(), m.lane(), m.position(), TickView.of(m.tick())));
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
            LaneOrdering.Swapped s = ordering().swap(lane(), x, y, tick.after());
            if (json()) {
                out().document(new LaneDocuments.Swapped(true, s.lane(), s.order(), TickView.of(s.tick())));
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
            LaneOrdering.Skipped s = ordering().skip(lane(), tick.after());
            if (json()) {
                out().document(new LaneDocuments.Skipped(true, s.lane(), s.skipped(),
                        s.skipped() == null ? null : s.order(), TickView.of(s.tick())));
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
            LaneOrdering.Assigned a = none ? ordering().unassign(lane(), job, tick.after())
                    : ordering().assign(lane(), job, at, tick.after());
            if (json()) {
                out().document(new LaneDocuments.Assigned(true, a.id(), a.lane(), a.previous(), none ? null : a.position(),
                        TickView.of(a.tick())));
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
            LaneOrdering.Switched s = ordering().pause(lane(), tick.after());
            return changed(s.lane(), s.tick(), " paused; jobs already running are left alone", null, null);
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Let a paused lane start jobs again.")
    public static final class Resume extends Sub {
        @Mixin
        NoTickOption tick;

        @Override
        protected int execute() {
            LaneOrdering.Switched s = ordering().resume(lane(), tick.after());
            return changed(s.lane(), s.tick(), " resumed", null, null);
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
            var lane = ordering().concurrency(lane(), value);
            if (json()) {
                out().document(new LaneDocuments.Concurrency(true, laneJson(lane)));
            } else {
                out().line("lane " + lane.name() + " runs up to " + lane.concurrency() + " job(s) at once");
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
                    LaneRunners.RunnerControl c = runners().setRunner(lane(), a.equals("on"), tick.read());
                    return control(c, a.equals("on") ? "runner on" : "runner off" + (c.stopped()
                            ? "; the runner stops once its job is done" : ""), false);
                }
                case "stop" -> {
                    LaneRunners.RunnerControl c = runners().stop(lane(), hard);
                    return control(c, c.stopped() ? (hard ? "runner terminated" : "runner told to stop once its job is done")
                            : "no runner was running", true);
                }
                case "restart" -> {
                    LaneRunners.RunnerControl c = runners().restart(lane(), hard, tick.read());
                    return control(c, c.stopped() ? "runner replaced" + (hard ? " (terminated)" : "")
                            + "; jobs it started keep running under the new one"
                            : "no runner was running; one starts when the lane has work", true);
                }
                default -> throw NvidbException.usage("unknown runner action '" + action
                        + "'; use status, on, off, stop or restart");
            }
        }

        private int control(LaneRunners.RunnerControl c, String sentence, boolean stopFields) {
            return changed(c.lane(), c.tick(), ": " + sentence, stopFields ? (Boolean) c.stopped() : null,
                    stopFields ? (Boolean) c.hard() : null);
        }

        private int status() {
            service().tick(tick.read());
            LaneRunners.RunnerStatus r = runners().runner(lane());
            boolean enabled = r.lane().runner();
            if (json()) {
                out().document(new LaneDocuments.Runner(r.lane().name(), enabled, r.up(), r.pid(), r.running(), r.staged(),
                        r.waiting(), Times.iso(r.lane().runnerSeenAt()), StoredJson.parsed(r.lane().runnerStateJson()),
                        r.blocked()));
            } else if (!enabled) {
                out().line("lane " + r.lane().name() + ": runner off (the scheduler starts this lane's jobs)");
            } else if (r.up()) {
                out().line("lane " + r.lane().name() + ": runner up, pid " + r.pid() + "; running "
                        + (r.running().isEmpty() ? "nothing" : "job " + join(r.running())) + "; staged "
                        + (r.staged().isEmpty() ? "nothing" : "job " + join(r.staged()))
                        + (r.waiting() == null ? "" : "; waiting: " + r.waiting()));
            } else {
                out().line("lane " + r.lane().name() + ": no runner up" + (r.lane().runnerSeenAt() == null ? ""
                        : " (last seen " + Times.iso(r.lane().runnerSeenAt()) + ")")
                        + (r.blocked() == null ? "" : "; " + r.blocked()));
            }
            return enabled && !r.up() ? 1 : 0;
        }

        private static String join(java.util.List<Long> ids) {
            return String.join(", ", ids.stream().map(String::valueOf).toList());
        }
    }
}
