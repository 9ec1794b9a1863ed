package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.JobCommands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "release", mixinStandardHelpOptions = true, description = {
        "Let a held job run without the prerequisites that ended badly (they are dropped from its --after list).",
        "Never release a job whose prerequisite produced the input it reads."})
public final class JobRelease extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        JobCommands.ReleaseResult result = service().jobCommands().release(ids.values(), tick.after());
        if (json()) {
            ObjectNode o = Output.object();
            ArrayNode results = o.putArray("results");
            for (JobCommands.Released r : result.results()) {
                ObjectNode x = results.addObject();
                x.put("id", r.id());
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
        return 0;
    }
}
