package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.Output;
import nvidb.cli.output.SweepViews;
import nvidb.core.api.Queue;
import nvidb.core.api.Sweeps;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "ls", mixinStandardHelpOptions = true, description = "List sweeps, newest first, with their runs' counts by state.")
public final class SweepList extends BaseCommand {
    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        Queue service = service();
        service.tick(tick.read());
        List<Sweeps.Summary> sweeps = service.sweeps().list();
        if (json()) {
            ObjectNode o = Output.object();
            ArrayNode a = o.putArray("sweeps");
            sweeps.forEach(s -> a.add(SweepViews.summary(s, now())));
            out().document(o);
        } else {
            out().line(sweeps.isEmpty() ? "no sweeps (make one with nvidb job sweep)" : SweepViews.table(sweeps, now()));
        }
        return 0;
    }
}
