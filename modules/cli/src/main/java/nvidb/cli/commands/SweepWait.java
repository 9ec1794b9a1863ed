package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.cli.output.SweepViews;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.Sweeps;
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

    @Override
    protected int execute() {
        if (timeout != null && timeout < 0) {
            throw NvidbException.usage("--timeout cannot be negative");
        }
        Queue service = service();
        long sweep = id.value();
        List<Long> ids = service.sweeps().jobIds(sweep);
        Waiting.Outcome o = ids.isEmpty() ? new Waiting.Outcome(List.of(), false, false)
                : Waiting.until(service, ids, timeout, out());
        Sweeps.Summary summary = service.sweeps().list().stream().filter(s -> s.sweep().id() == sweep).findFirst()
                .orElseThrow();
        if (json()) {
            ObjectNode doc = Output.object();
            doc.put("ok", true);
            doc.set("sweep", SweepViews.summary(summary, now()));
            ArrayNode jobs = doc.putArray("job_ids");
            ids.forEach(jobs::add);
            doc.put("all_done", o.allDone());
            doc.put("all_succeeded", o.allSucceeded());
            doc.put("timed_out", o.timedOut());
            doc.put("interrupted", o.interrupted());
            out().document(doc);
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
