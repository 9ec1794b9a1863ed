package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.JobCommands;
import nvidb.core.api.NvidbException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "requeue", mixinStandardHelpOptions = true, description = {
        "Run the sweep's runs that ended badly again (as job requeue does each); completed runs keep their results."})
public final class SweepRequeue extends BaseCommand {
    @Mixin
    SweepIdArgument id;

    @Option(names = "--failed", description = "The runs that failed, timed out or were lost.")
    boolean failed;

    @Option(names = "--cancelled", description = "The cancelled runs too.")
    boolean cancelled;

    @Mixin
    NoTickOption tick;

    @Override
    protected int execute() {
        if (!failed) {
            throw NvidbException.usage("say which runs to requeue: --failed (failed, timeout, lost), with --cancelled"
                    + " for the cancelled ones too");
        }
        long sweep = id.value();
        JobCommands.RequeueResult r = service().sweeps().requeue(sweep, cancelled, tick.after());
        List<Long> requeued = r.results().stream().filter(JobCommands.Requeued::requeued).map(JobCommands.Requeued::id)
                .toList();
        if (json()) {
            ObjectNode o = Output.object();
            o.put("ok", true);
            o.put("sweep_id", sweep);
            ArrayNode a = o.putArray("requeued");
            requeued.forEach(a::add);
            o.set("tick", Views.tick(r.tick()));
            out().document(o);
        } else {
            out().line("sweep " + sweep + ": requeued " + requeued.size() + " run(s)"
                    + (requeued.isEmpty() ? " (none had ended badly)" : ""));
        }
        return 0;
    }
}
