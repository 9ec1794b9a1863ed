package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import nvidb.cli.output.LaneViews;
import nvidb.cli.output.Output;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "lanes", mixinStandardHelpOptions = true, description = {
        "Every GPU lane: what it runs now, what is next, and why it waits."})
public final class QueueLanes extends BaseCommand {
    @Option(names = "--node", paramLabel = "NODE", description = "Only this node's lanes (exact, case-insensitive, or unique prefix).")
    String node;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        Queue service = service();
        service.tick(tick.read());
        List<LaneView> views = service.laneQueries().list(node);
        Instant now = now();
        if (json()) {
            ObjectNode o = Output.object();
            ArrayNode a = o.putArray("lanes");
            views.forEach(v -> a.add(LaneViews.view(v, now)));
            out().document(o);
        } else {
            out().line(LaneViews.table(views));
        }
        return 0;
    }
}
