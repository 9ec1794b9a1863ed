package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.GpuState;
import nvidb.core.api.History;

/**
 * The {@code gpu_samples} and {@code queue_samples} tables (migration V005): each pass's probe folded
 * into a bucket of every tier, and buckets past their tier's age deleted in the same write. No
 * later re-aggregation is needed, so a pass's cost is three upserts a GPU and three range deletes.
 */
public final class HistoryRepository {
    /** Bucket width and how long buckets are kept, per tier (the tier is the index). */
    public record Tier(long widthS, long keepS) {
    }

    /** 1-minute buckets for a day, 10-minute ones for a week, hourly ones for 30 days: 3,168 rows a GPU. */
    public static final List<Tier> TIERS = List.of(new Tier(60, 86_400), new Tier(600, 7 * 86_400),
            new Tier(3_600, 30 * 86_400));

    private static final String FOLD_GPU = """
            INSERT INTO gpu_samples (tier, ts, node, gpu_index, n, total_mb, external_mb, reserved_mb, used_mb,
                                     util, util_n, temp_max, jobs, power_w, power_n)
            VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (tier, ts, node, gpu_index) DO UPDATE SET
                n = n + 1, total_mb = total_mb + excluded.total_mb, external_mb = external_mb + excluded.external_mb,
                reserved_mb = reserved_mb + excluded.reserved_mb, used_mb = used_mb + excluded.used_mb,
                util = util + excluded.util, util_n = util_n + excluded.util_n,
                temp_max = MAX(COALESCE(temp_max, excluded.temp_max), COALESCE(excluded.temp_max, temp_max)),
                jobs = jobs + excluded.jobs, power_w = power_w + excluded.power_w, power_n = power_n + excluded.power_n
            """;
    private static final String FOLD_QUEUE = """
            INSERT INTO queue_samples (tier, ts, n, pending, running, oldest_wait_s) VALUES (?, ?, 1, ?, ?, ?)
            ON CONFLICT (tier, ts) DO UPDATE SET n = n + 1, pending = pending + excluded.pending,
                running = running + excluded.running, oldest_wait_s = MAX(oldest_wait_s, excluded.oldest_wait_s)
            """;
    private static final String PRUNE_GPU = "DELETE FROM gpu_samples WHERE tier = ? AND ts < ?";
    private static final String PRUNE_QUEUE = "DELETE FROM queue_samples WHERE tier = ? AND ts < ?";
    /** What the queue looks like now: the history's queue sample (idx_jobs_state answers it). */
    private static final String QUEUE_NOW = """
            SELECT COALESCE(SUM(state = 'pending'), 0), COALESCE(SUM(state = 'running'), 0),
                   MIN(CASE WHEN state = 'pending' THEN created_at END) AS oldest
            FROM jobs WHERE state IN ('pending', 'running')
            """;
    private static final String GPU_RANGE = """
            SELECT ts, n, total_mb, external_mb, reserved_mb, used_mb, util, util_n, temp_max, jobs, power_w, power_n
            FROM gpu_samples
            WHERE tier = ? AND ts >= ? AND node = ? AND gpu_index = ? ORDER BY ts
            """;
    private static final String QUEUE_RANGE =
            "SELECT ts, n, pending, running, oldest_wait_s FROM queue_samples WHERE tier = ? AND ts >= ? ORDER BY ts";

    private final Database db;

    public HistoryRepository(Database db) {
        this.db = db;
    }

    /**
     * Folds one probe of {@code gpus} into every tier's bucket of {@code now}, with each GPU's power
     * draw in watts where {@code powerByGpu} has one (by index); inside the caller's write.
     */
    public void recordGpus(Instant now, List<GpuState> gpus, java.util.Map<Integer, Double> powerByGpu) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(FOLD_GPU)) {
                for (GpuState g : gpus) {
                    for (int tier = 0; tier < TIERS.size(); tier++) {
                        Integer util = g.utilPercent();
                        Double power = powerByGpu.get(g.index());
                        Rows.bind(ps, tier, bucket(now, tier), g.node(), g.index(),
                                g.memTotalMb() == null ? 0 : g.memTotalMb(), g.externalMemMb(), g.reservedMb(),
                                g.memUsedMb() == null ? 0 : g.memUsedMb(), util == null ? 0 : util, util == null ? 0 : 1,
                                g.temperatureC(), g.queueJobs(), power == null ? 0.0 : power, power == null ? 0 : 1);
                        ps.executeUpdate();
                    }
                }
            }
            return null;
        });
    }

    /** Folds the queue's depth now into every tier and drops buckets past their age; inside the caller's write. */
    public void recordQueue(Instant now) {
        Rows.sql(() -> {
            long pending;
            long running;
            long wait;
            try (PreparedStatement ps = db.connection().prepareStatement(QUEUE_NOW); ResultSet rs = ps.executeQuery()) {
                rs.next();
                pending = rs.getLong(1);
                running = rs.getLong(2);
                Instant oldest = Rows.instant(rs, "oldest");
                wait = oldest == null ? 0 : Math.max(0, now.getEpochSecond() - oldest.getEpochSecond());
            }
            try (PreparedStatement fold = db.connection().prepareStatement(FOLD_QUEUE);
                 PreparedStatement gpus = db.connection().prepareStatement(PRUNE_GPU);
                 PreparedStatement queue = db.connection().prepareStatement(PRUNE_QUEUE)) {
                for (int tier = 0; tier < TIERS.size(); tier++) {
                    Rows.bind(fold, tier, bucket(now, tier), pending, running, wait);
                    fold.executeUpdate();
                    long cut = now.getEpochSecond() - TIERS.get(tier).keepS();
                    Rows.bind(gpus, tier, cut);
                    gpus.executeUpdate();
                    Rows.bind(queue, tier, cut);
                    queue.executeUpdate();
                }
            }
            return null;
        });
    }

    /** One GPU's buckets of {@code range} up to {@code now}, oldest first. */
    public List<History.GpuSample> gpu(String node, int index, History.Range range, Instant now) {
        return Rows.sql(() -> {
            List<History.GpuSample> out = new ArrayList<>();
            try (PreparedStatement ps = db.connection().prepareStatement(GPU_RANGE)) {
                Rows.bind(ps, range.tier(), now.minus(range.span()).getEpochSecond(), node, index);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int n = rs.getInt("n");
                        int utilN = rs.getInt("util_n");
                        int powerN = rs.getInt("power_n");
                        out.add(new History.GpuSample(Instant.ofEpochSecond(rs.getLong("ts")), n,
                                rs.getLong("total_mb") / n, rs.getLong("external_mb") / n, rs.getLong("reserved_mb") / n,
                                rs.getLong("used_mb") / n, utilN == 0 ? null : (int) (rs.getLong("util") / utilN),
                                Rows.intOrNull(rs, "temp_max"), Math.round(10.0 * rs.getLong("jobs") / n) / 10.0,
                                powerN == 0 ? null : Math.round(10.0 * rs.getDouble("power_w") / powerN) / 10.0));
                    }
                }
            }
            return out;
        });
    }

    /** The queue's buckets of {@code range} up to {@code now}, oldest first. */
    public List<History.QueueSample> queue(History.Range range, Instant now) {
        return Rows.sql(() -> {
            List<History.QueueSample> out = new ArrayList<>();
            try (PreparedStatement ps = db.connection().prepareStatement(QUEUE_RANGE)) {
                Rows.bind(ps, range.tier(), now.minus(range.span()).getEpochSecond());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int n = rs.getInt("n");
                        out.add(new History.QueueSample(Instant.ofEpochSecond(rs.getLong("ts")), n,
                                Math.round(10.0 * rs.getLong("pending") / n) / 10.0,
                                Math.round(10.0 * rs.getLong("running") / n) / 10.0, rs.getLong("oldest_wait_s")));
                    }
                }
            }
            return out;
        });
    }

    private static long bucket(Instant now, int tier) {
        long width = TIERS.get(tier).widthS();
        return Math.floorDiv(now.getEpochSecond(), width) * width;
    }
}
