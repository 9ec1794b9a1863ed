package nvidb.cli.commands;

import java.util.List;
import nvidb.cli.output.SweepViews;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.Sweeps;
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
        Queue service = service();
        long sweep = id.value();
        List<Long> ids = service.sweeps().jobIds(sweep);
        Waiting.Outcome o = ids.isEmpty() ? new Waiting.Outcome(List.of(), false, false)
                : Waiting.until(service, ids, timeout, out(), tick.read());
        Sweeps.Summary summary = service.sweeps().list().stream().filter(s -> s.sweep().id() == sweep).findFirst()
                .orElseThrow();
        if (json()) {
            out().document(new SweepDocuments.Waited(true, SweepDocuments.Summary.of(summary, now()), ids, o.allDone(),
                    o.allSucceeded(), o.timedOut(), o.interrupted()));
        } else {
            out().line("sweep " + sweep + ": " + summary.runs() + " run(s), " + SweepViews.states(summary.states()));
            if (o.timedOut()) {
                out().note("wait timed out; runs of the sweep are still going");
            }
            if (o.interrupted()) {
                out().note(o.interruptedNote());
            }
        }
        return o.exitCode();
    }
}
