package nvidb.core.view;

import java.util.List;
import nvidb.core.api.History;
import nvidb.core.api.Times;

/** {@code queue history}: one GPU's buckets, or the queue's. */
public final class HistoryDocuments {
    private HistoryDocuments() {
    }

    public record GpuPoint(String at, int probes, long totalMb, long externalMb, long reservedMb, long freeMb,
                           long usedMb, Integer utilPercent, Integer temperatureC, double jobs, Double powerW) {
        public static GpuPoint of(History.GpuSample s) {
            return new GpuPoint(Times.iso(s.at()), s.probes(), s.totalMb(), s.externalMb(), s.reservedMb(), s.freeMb(),
                    s.usedMb(), s.utilPercent(), s.temperatureC(), s.jobs(), s.powerW());
        }
    }

    public record QueuePoint(String at, int probes, double pending, double running, long oldestWaitS) {
        public static QueuePoint of(History.QueueSample s) {
            return new QueuePoint(Times.iso(s.at()), s.probes(), s.pending(), s.running(), s.oldestWaitS());
        }
    }

    /** {@code queue history --gpu NODE:INDEX}. */
    public record Gpu(String range, String node, int index, List<GpuPoint> samples) {
    }

    /** {@code queue history}: the queue as a whole. */
    public record Queue(String range, List<QueuePoint> samples) {
    }
}
