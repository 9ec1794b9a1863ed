package nvidb.cli.commands;

import java.util.List;
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
        SweepDocuments.Cancelled done = ctx().app().sweeps().cancel(ctx().caller(), sweep);
        List<Long> cancelled = done.cancelled();
        if (json()) {
            out().document(done);
        } else {
            out().line("sweep " + sweep + ": cancelled " + cancelled.size() + " run(s)"
                    + (cancelled.isEmpty() ? " (none was pending or running)" : ""));
        }
        return 0;
    }
}
