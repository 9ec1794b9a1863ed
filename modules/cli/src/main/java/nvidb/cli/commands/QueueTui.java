package nvidb.cli.commands;

import nvidb.cli.context.CliContext;
import nvidb.cli.context.ContextHolder;
import nvidb.core.api.NvidbException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code nvidb queue tui} (and bare {@code nvidb queue}): the queue on this terminal. */
@Command(name = "tui", mixinStandardHelpOptions = true, description = {
    "The queue on this terminal, steered with keys and the mouse until q.",
    "",
    "Node cards (per GPU a memory bar: # memory of processes the queue did not start, = the queue's reservations,"
        + " . free; utilisation, temperature, attribution: blind), open alerts first, the jobs in dispatch order,"
        + " the selected job's detail (Enter) and log (L), lanes (Tab). Keys: j/k or arrows, PgUp/PgDn, g/G,"
        + " Tab, Enter, [ ], L, c twice to cancel, r requeue, + / - priority, K/J move a pending job, s/S sort,"
        + " f filter, p processes, t pass, a auto-tick, d drain/resume, A acknowledge alerts, ? all keys, q quit;"
        + " the mouse selects, sorts by a heading and scrolls. Every action is the CLI command of that name."
        + " Colour where the terminal has it, never with NO_COLOR."})
public final class QueueTui extends BaseCommand {
    @Option(names = "--refresh", paramLabel = "SECONDS",
            description = "How often the view is re-read and, with auto-tick on, a pass is made (default 3, at least 1).")
    Double refresh;

    @Override
    protected int execute() {
        return launch(spec, refresh);
    }

    /**
     * Runs the TUI for the command line {@code spec} belongs to. The queue is opened here first,
     * so a broken configuration is reported like every command's error, before the screen
     * changes (a client with a queue host runs the TUI there, see ForwardClient); that queue then serves one of the TUI's
     * workers, and each other worker gets one of its own.
     */
    static int launch(CommandSpec spec, Double refresh) {
        CliContext ctx = ((ContextHolder) spec.root().userObject()).context();
        if (ctx.output().json()) {
            throw NvidbException.usage("nvidb queue tui is interactive and prints no JSON; use nvidb queue status --json");
        }
        double seconds = refresh == null ? nvidb.tui.Tui.DEFAULT_REFRESH_SECONDS : refresh;
        if (!Double.isFinite(seconds) || seconds < nvidb.tui.Tui.MIN_REFRESH_SECONDS) {
            throw NvidbException.usage("--refresh takes a number of seconds, at least "
                    + nvidb.tui.Tui.MIN_REFRESH_SECONDS + " (got " + refresh + ")");
        }
        ctx.open(); // a broken configuration is reported before the terminal is taken
        return nvidb.tui.Tui.run(seconds, ctx.env(), ctx::openAccess);
    }
}
