package nvidb.cli.commands;

import java.util.List;
import nvidb.core.api.NvidbException;
import nvidb.core.view.SweepDocuments;
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

    /** Reads the sweep's spec. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        if (!failed) {
            throw NvidbException.usage("say which runs to requeue: --failed (failed, timeout, lost), with --cancelled"
                    + " for the cancelled ones too");
        }
        long sweep = id.value();
        SweepDocuments.Requeued done = ctx().app().sweeps().requeue(ctx().caller(), sweep, cancelled, tick.after());
        List<Long> requeued = done.requeued();
        if (json()) {
            out().document(done);
        } else {
            out().line("sweep " + sweep + ": requeued " + requeued.size() + " run(s)"
                    + (requeued.isEmpty() ? " (none had ended badly)" : ""));
        }
        return 0;
    }
}
