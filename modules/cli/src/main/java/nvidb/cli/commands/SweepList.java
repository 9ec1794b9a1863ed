package nvidb.cli.commands;

import java.util.List;
import nvidb.cli.output.SweepViews;
import nvidb.core.api.Queue;
import nvidb.core.api.Sweeps;
import nvidb.core.view.SweepDocuments;
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
    protected List<Class<?>> jsonDocuments() {
        return List.of(SweepDocuments.Listed.class);
    }

    @Override
    protected int execute() {
        Queue service = service();
        service.tick(tick.read());
        List<Sweeps.Summary> sweeps = service.sweeps().list();
        if (json()) {
            out().document(new SweepDocuments.Listed(sweeps.stream().map(s -> SweepDocuments.Summary.of(s, now())).toList()));
        } else {
            out().line(sweeps.isEmpty() ? "no sweeps (make one with nvidb job sweep)" : SweepViews.table(sweeps, now()));
        }
        return 0;
    }
}
