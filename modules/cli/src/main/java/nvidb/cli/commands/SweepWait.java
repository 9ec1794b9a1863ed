package nvidb.cli.commands;

import nvidb.cli.output.SweepViews;
import nvidb.core.api.NvidbException;
import nvidb.core.app.JobOperations;
import nvidb.core.app.SweepOperations;
import nvidb.core.view.SweepDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "wait", mixinStandardHelpOptions = true, description = {
        "Block until every run of the sweep ends.",
        "Exits as job wait: 0 when all completed, 1 when one ended badly, 2 when --timeout ran out with runs still going."})
public final class SweepWait extends BaseCommand {
    @Mixin
    SweepIdArgument id;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Give up waiting after this long (exit 2).")
    Integer timeout;

    @Mixin
    TickOptions tick;

    /** Reads the sweep's spec. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        if (timeout != null && timeout < 0) {
            throw NvidbException.usage("--timeout cannot be negative");
        }
        long sweep = id.value();
        SweepOperations.Waited waited = ctx().app().sweeps().waitFor(ctx().caller(), sweep, timeout, tick.read(),
                Waiting.statusLine(out()));
        JobOperations.Waited o = waited.runs();
        Waiting.ended(o, out());
        if (json()) {
            out().document(waited.document());
        } else {
            SweepDocuments.Summary summary = waited.document().sweep();
            out().line("sweep " + sweep + ": " + summary.runs() + " run(s), " + SweepViews.states(summary.states()));
            if (o.timedOut()) {
                out().note("wait timed out; runs of the sweep are still going");
            }
            if (o.interrupted()) {
                out().note(Waiting.interruptedNote(o));
            }
        }
        return Waiting.exitCode(o);
    }
}
