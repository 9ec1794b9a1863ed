package nvidb.core.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the GPUs and the queue looked like over the last hour, day or week: each pass folds its
 * probe into buckets kept in the database (1-minute buckets for a day, 10-minute ones for a week,
 * hourly ones for 30 days), so the size stays bounded whatever the pass interval.
 */
public interface History {
    /** A plot's span, and the bucket width it is drawn from. */
    enum Range {
        HOUR("1h", Duration.ofHours(1), 0), DAY("1d", Duration.ofDays(1), 1), WEEK("7d", Duration.ofDays(7), 2);

        private final String label;
        private final Duration span;
        private final int tier;

        Range(String label, Duration span, int tier) {
            this.label = label;
            this.span = span;
            this.tier = tier;
        }

        public String label() {
            return label;
        }

        public Duration span() {
            return span;
        }

        /** The bucket tier the range is read from (see the store's history). */
        public int tier() {
            return tier;
        }

        /** {@code 1h}, {@code 1d} or {@code 7d}; anything else is a usage error naming those. */
        public static Range of(String label) {
            for (Range r : values()) {
                if (r.label.equals(label)) {
                    return r;
                }
            }
            throw NvidbException.usage("a range is 1h, 1d or 7d, not '" + label + "'");
        }
    }

    /**
     * One GPU in one bucket: means over the probes of the bucket (memory in MiB), the hottest
     * temperature seen. {@code utilPercent} is null where the driver never said.
     */
    record GpuSample(Instant at, int probes, long totalMb, long externalMb, long reservedMb, long usedMb,
                     Integer utilPercent, Integer temperatureC, double jobs) {
        /** What is neither external nor reserved by the queue: the plot's free band. */
        public long freeMb() {
            return Math.max(0, totalMb - externalMb - reservedMb);
        }
    }

    /** The queue in one bucket: means of pending and running jobs, the longest wait seen (seconds). */
    record QueueSample(Instant at, int probes, double pending, double running, long oldestWaitS) {
    }

    /** One GPU ({@code node} exactly as named, or a unique prefix) over {@code range}, oldest first. */
    List<GpuSample> gpu(String node, int index, Range range);

    /** The queue's depth and wait over {@code range}, oldest first. */
    List<QueueSample> queue(Range range);
}
