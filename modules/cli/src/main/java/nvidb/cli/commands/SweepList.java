package nvidb.cli.commands;

import java.util.List;
import nvidb.cli.output.SweepViews;
import nvidb.core.api.Sweeps;
import nvidb.core.app.Application;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "ls", mixinStandardHelpOptions = true, description = "List sweeps, newest first, with their runs' counts by state.")
public final class SweepList extends BaseCommand {
    @Mixin
    TickOptions tick;

    /** Reads each sweep's spec. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        Application app = ctx().app();
        app.tick(ctx().caller(), tick.read());
        if (json()) {
            out().document(app.sweeps().list(ctx().caller()));
        } else {
            List<Sweeps.Summary> sweeps = app.sweeps().summaries(ctx().caller());
            out().line(sweeps.isEmpty() ? "no sweeps (make one with nvidb job sweep)" : SweepViews.table(sweeps, now()));
        }
        return 0;
    }
}
