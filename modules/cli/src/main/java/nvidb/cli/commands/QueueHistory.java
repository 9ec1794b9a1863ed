package nvidb.cli.commands;

import java.util.List;
import nvidb.core.api.History;
import nvidb.core.api.NvidbException;
import nvidb.core.view.HistoryDocuments;
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
        History.Range r = History.Range.of(range);
        service().tick(tick.onRequest());
        Object doc;
        List<?> samples;
        if (gpu == null) {
            List<HistoryDocuments.QueuePoint> points = service().history().queue(r).stream()
                    .map(HistoryDocuments.QueuePoint::of).toList();
            doc = new HistoryDocuments.Queue(r.label(), points);
            samples = points;
        } else {
            int colon = gpu.lastIndexOf(':');
            int index = colon > 0 ? parseIndex(gpu.substring(colon + 1)) : -1;
            if (index < 0) {
                throw NvidbException.usage("--gpu takes NODE:INDEX, such as box406:2, not '" + gpu + "'");
            }
            String node = gpu.substring(0, colon);
            List<HistoryDocuments.GpuPoint> points = service().history().gpu(node, index, r).stream()
                    .map(HistoryDocuments.GpuPoint::of).toList();
            doc = new HistoryDocuments.Gpu(r.label(), node, index, points);
            samples = points;
        }
        if (json()) {
            out().document(doc);
        } else if (samples.isEmpty()) {
            out().line("no samples in the last " + r.label() + " (a pass records them)");
        } else {
            samples.forEach(p -> out().line(String.valueOf(p)));
        }
        return 0;
    }

    private static int parseIndex(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
