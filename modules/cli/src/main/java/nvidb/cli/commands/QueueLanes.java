package nvidb.cli.commands;

import java.time.Instant;
import java.util.List;
import nvidb.cli.output.LaneViews;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.Queue;
import nvidb.core.view.QueueDocuments;
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
            out().document(new QueueDocuments.Lanes(views.stream()
                    .map(v -> nvidb.core.view.LaneView.Detail.of(v, now)).toList()));
        } else {
            out().line(LaneViews.table(views));
        }
        return 0;
    }
}
