package nvidb.cli.commands;

import nvidb.cli.output.LaneViews;
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
        ctx().app().tick(ctx().caller(), tick.read());
        if (json()) {
            out().document(ctx().app().lanes(ctx().caller(), node));
        } else {
            out().line(LaneViews.table(ctx().app().laneViews(ctx().caller(), node)));
        }
        return 0;
    }
}
