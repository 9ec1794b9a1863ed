package nvidb.core.app;

import java.util.List;
import nvidb.core.api.History;
import nvidb.core.api.NvidbException;
import nvidb.core.view.HistoryDocuments;

/** {@code queue history}: what the passes recorded of one GPU ({@code NODE:INDEX}) or of the queue. */
public final class QueueHistory {
    private QueueHistory() {
    }

    /** The document, and its samples for a front end that shows them one per line. */
    public record Read(Object document, List<?> samples, String range) {
    }

    static Read read(History history, String gpu, String range) {
        History.Range r = History.Range.of(range);
        if (gpu == null) {
            List<HistoryDocuments.QueuePoint> points = history.queue(r).stream().map(HistoryDocuments.QueuePoint::of).toList();
            return new Read(new HistoryDocuments.Queue(r.label(), points), points, r.label());
        }
        int colon = gpu.lastIndexOf(':');
        int index = colon > 0 ? parseIndex(gpu.substring(colon + 1)) : -1;
        if (index < 0) {
            throw NvidbException.usage("--gpu takes NODE:INDEX, such as box406:2, not '" + gpu + "'");
        }
        String node = gpu.substring(0, colon);
        List<HistoryDocuments.GpuPoint> points = history.gpu(node, index, r).stream().map(HistoryDocuments.GpuPoint::of).toList();
        return new Read(new HistoryDocuments.Gpu(r.label(), node, index, points), points, r.label());
    }

    private static int parseIndex(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
