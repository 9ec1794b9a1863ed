package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.core.api.JobCommands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "cancel", mixinStandardHelpOptions = true, description = {
        "Cancel every run of the sweep that is still pending or running (as job cancel does each)."})
public final class SweepCancel extends BaseCommand {
    @Mixin
    SweepIdArgument id;

    @Override
    protected int execute() {
        long sweep = id.value();
        List<JobCommands.Cancelled> results = service().sweeps().cancel(sweep);
        List<Long> cancelled = results.stream().filter(JobCommands.Cancelled::cancelled).map(JobCommands.Cancelled::id)
                .toList();
        if (json()) {
            ObjectNode o = Output.object();
            o.put("ok", true);
            o.put("sweep_id", sweep);
            ArrayNode a = o.putArray("cancelled");
            cancelled.forEach(a::add);
            out().document(o);
        } else {
            out().line("sweep " + sweep + ": cancelled " + cancelled.size() + " run(s)"
                    + (cancelled.isEmpty() ? " (none was pending or running)" : ""));
        }
        return 0;
    }
}
