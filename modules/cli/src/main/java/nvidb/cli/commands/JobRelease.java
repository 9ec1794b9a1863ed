package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.JobCommands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "release", mixinStandardHelpOptions = true, description = {
        "Let a held job run without the prerequisites that ended badly (they are dropped from its --after list).",
        "Never release a job whose prerequisite produced the input it reads.", Outcomes.RULE})
public final class JobRelease extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        JobCommands.ReleaseResult result = service().jobCommands().release(ids.values(), tick.after());
        List<Outcomes.Item> items = result.results().stream()
                .map(r -> new Outcomes.Item(r.id(), r.released(), r.state(), r.reason())).toList();
        Outcomes.Verdict verdict = Outcomes.verdict(items, "release");
        if (json()) {
            ObjectNode o = Output.object();
            verdict.into(o);
            ArrayNode results = o.putArray("results");
            for (int i = 0; i < items.size(); i++) {
                JobCommands.Released r = result.results().get(i);
                ObjectNode x = Outcomes.result(results, items.get(i), "release");
                x.put("released", r.released());
                x.put("reason", r.reason());
                Views.longs(x.putArray("dropped"), r.dropped());
            }
            o.set("tick", Views.tick(result.tick()));
            out().document(o);
        } else {
            for (JobCommands.Released r : result.results()) {
                out().line("job " + r.id() + ": " + r.reason());
            }
        }
        return verdict.report(out());
    }
}
