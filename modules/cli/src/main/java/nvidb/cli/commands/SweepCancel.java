package nvidb.cli.commands;

import java.util.List;
import nvidb.core.api.JobCommands;
import nvidb.core.view.SweepDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "cancel", mixinStandardHelpOptions = true, description = {
        "Cancel every run of the sweep that is still pending or running (as job cancel does each)."})
public final class SweepCancel extends BaseCommand {
    @Mixin
    SweepIdArgument id;

    /** Reads the sweep's spec. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        long sweep = id.value();
        List<JobCommands.Cancelled> results = service().sweeps().cancel(sweep);
        List<Long> cancelled = results.stream().filter(JobCommands.Cancelled::cancelled).map(JobCommands.Cancelled::id)
                .toList();
        if (json()) {
            out().document(new SweepDocuments.Cancelled(true, sweep, cancelled));
        } else {
            out().line("sweep " + sweep + ": cancelled " + cancelled.size() + " run(s)"
                    + (cancelled.isEmpty() ? " (none was pending or running)" : ""));
        }
        return 0;
    }
}
