package nvidb.cli.commands;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb queue history}: what the passes recorded of a GPU, or of the queue. */
@Command(name = "history", mixinStandardHelpOptions = true, description = {
    "What a GPU or the queue looked like over the last hour, day or week, as the passes recorded it.",
    "With --gpu NODE:INDEX: memory (total, external, reserved by the queue, free, used), utilisation, temperature",
    "and jobs per bucket; without: jobs pending and running and the longest wait. Buckets of 1 minute are kept a day,",
    "of 10 minutes a week, of an hour 30 days. The web pages draw it."})
public final class QueueHistory extends BaseCommand {
    @Option(names = "--gpu", paramLabel = "NODE:INDEX", description = "One GPU, such as box406:2 (default: the queue).")
    String gpu;

    @Option(names = "--range", paramLabel = "RANGE", defaultValue = "1h", description = "1h, 1d or 7d (default 1h).")
    String range;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        nvidb.core.api.History.Range.of(range); // a range that does not parse is refused before any pass
        ctx().app().tick(ctx().caller(), tick.onRequest());
        nvidb.core.app.QueueHistory.Read read = ctx().app().history(ctx().caller(), gpu, range);
        if (json()) {
            out().document(read.document());
        } else if (read.samples().isEmpty()) {
            out().line("no samples in the last " + read.range() + " (a pass records them)");
        } else {
            read.samples().forEach(p -> out().line(String.valueOf(p)));
        }
        return 0;
    }
}
