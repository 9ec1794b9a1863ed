package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.JobCommands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "requeue", mixinStandardHelpOptions = true, description = {
        "Run finished jobs again (note, tags and dependencies kept).", Outcomes.RULE})
public final class JobRequeue extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        JobCommands.RequeueResult result = service().jobCommands().requeue(ids.values(), tick.after());
        List<Outcomes.Item> items = result.results().stream()
                .map(r -> new Outcomes.Item(r.id(), r.requeued(), r.state())).toList();
        Outcomes.Verdict verdict = Outcomes.verdict(items, "requeue");
        if (json()) {
            ObjectNode o = Output.object();
            verdict.into(o);
            ArrayNode a = o.putArray("results");
            for (int i = 0; i < items.size(); i++) {
                Outcomes.result(a, items.get(i), "requeue").put("requeued", result.results().get(i).requeued());
            }
            o.set("tick", Views.tick(result.tick()));
            out().document(o);
        } else {
            for (JobCommands.Requeued r : result.results()) {
                out().line("job " + r.id() + ": " + (r.requeued() ? "requeued"
                        : r.state() == null ? "not found" : "not requeueable (" + r.state() + ")"));
            }
        }
        return verdict.report(out());
    }
}
