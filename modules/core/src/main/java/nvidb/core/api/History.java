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
     * temperature seen. {@code utilPercent} is null where the driver never said, {@code powerW} (the
     * mean power draw in watts, to a tenth) where it reported no {@code power.draw}.
     */
    record GpuSample(Instant at, int probes, long totalMb, long externalMb, long reservedMb, long usedMb,
                     Integer utilPercent, Integer temperatureC, double jobs, Double powerW) {
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

    /** What {@code queue usage} groups the jobs by. */
    enum UsageKey {
        USER("user"), SWEEP("sweep"), NODE("node"), NAME("name");

        private final String label;

        UsageKey(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** {@code user}, {@code sweep}, {@code node} or {@code name}; anything else is a usage error naming those. */
        public static UsageKey of(String label) {
            for (UsageKey k : values()) {
                if (k.label.equals(label)) {
                    return k;
                }
            }
            throw NvidbException.usage("--by takes user, sweep, node or name, not '" + label + "'");
        }
    }

    /**
     * What the jobs of one group used in a window, in seconds, MiB-seconds and joules. Null: no job
     * of the group had it measured (peak memory: no look saw its processes; idle time: no look saw
     * a utilisation; energy: no look saw a power draw).
     *
     * @param key the user, sweep id, node or name; null for jobs without one (not in a sweep, say)
     */
    record Usage(String key, long jobs, double gpuSeconds, double vramMbSecondsReserved, Double vramMbSecondsPeak,
                 Double idleGpuSeconds, Double energyJoules) {
    }

    /** The GPUs a user's running jobs hold now ({@code user} null: jobs from before accounts were recorded). */
    record UserGpus(String user, int runningGpus) {
    }

    /** The jobs that ran between {@code since} and {@code until}, summed by {@code by}, the most GPU-hours first. */
    List<Usage> usage(UsageKey by, Instant since, Instant until);

    /** The GPUs running jobs hold, per user. */
    List<UserGpus> runningGpusByUser();
}
