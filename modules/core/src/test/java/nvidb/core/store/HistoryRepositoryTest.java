package nvidb.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.GpuState;
import nvidb.core.api.History;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history behind the web's plots: probes fold into buckets of three tiers, old buckets go,
 * and 64 GPUs over 30 days of passes stay under 50 MB (the figure is printed).
 */
class HistoryRepositoryTest {
    @TempDir
    Path tmp;

    private static GpuState gpu(String node, int index, int external, int reserved, Integer util) {
        return new GpuState(node, index, "GPU-" + node + index, "A100", 81920, external + reserved, util, 10, 60,
                external, 1, reserved, reserved, 1, "nvidia-smi", List.of(), 0, Instant.now());
    }

    @Test
    void probesFoldIntoBucketsAndAnHourReadsMinuteMeans() {
        try (Store s = Store.open(tmp.resolve("q.db"))) {
            Instant t = Instant.parse("2026-01-01T10:00:00Z");
            s.db.write(() -> {
                s.history.recordGpus(t, List.of(gpu("alpha", 0, 1000, 2000, 50)), java.util.Map.of(0, 250.5));
                s.history.recordGpus(t.plusSeconds(20), List.of(gpu("alpha", 0, 3000, 2000, null)), java.util.Map.of());
                s.history.recordGpus(t.plusSeconds(70), List.of(gpu("alpha", 0, 500, 0, 10)), java.util.Map.of());
                return null;
            });
            List<History.GpuSample> hour = s.db.read(() -> s.history.gpu("alpha", 0, History.Range.HOUR, t.plusSeconds(100)));
            assertEquals(2, hour.size(), hour.toString());
            History.GpuSample first = hour.getFirst();
            assertEquals(2, first.probes());
            assertEquals(2000, first.externalMb(), "the mean of 1000 and 3000");
            assertEquals(50, first.utilPercent(), "a probe without utilisation does not count toward it");
            assertEquals(81920 - 2000 - 2000, first.freeMb());
            assertEquals(250.5, first.powerW(), "the mean of the probes that reported a power draw");
            assertEquals(null, hour.get(1).powerW(), "no probe of the bucket reported one");
            List<History.GpuSample> day = s.db.read(() -> s.history.gpu("alpha", 0, History.Range.DAY, t.plusSeconds(100)));
            assertEquals(1, day.size(), "one 10-minute bucket");
            assertEquals(3, day.getFirst().probes());
            assertEquals(0, s.db.read(() -> s.history.gpu("alpha", 1, History.Range.HOUR, t.plusSeconds(100))).size());
        }
    }

    @Test
    void sixtyFourGpusOverThirtyDaysStayUnderFiftyMegabytes() throws Exception {
        List<GpuState> gpus = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            for (int i = 0; i < 8; i++) {
                gpus.add(gpu("gpu-box-" + n, i, 1000 * i, 512 * n, 40 + i));
            }
        }
        Instant now = Instant.parse("2026-03-01T00:00:00Z");
        // Passes every hour for the first 23 days, every 10 minutes for the next 6, every minute for
        // the last: each tier's buckets are all filled, as passes every few seconds would fill them.
        List<Instant> passes = new ArrayList<>();
        for (Instant t = now.minus(Duration.ofDays(30)); t.isBefore(now); ) {
            passes.add(t);
            long left = Duration.between(t, now).toSeconds();
            t = t.plusSeconds(left > 7 * 86_400 ? 3_600 : left > 86_400 ? 600 : 60);
        }
        try (Store s = Store.open(tmp.resolve("q.db"))) {
            for (int from = 0; from < passes.size(); from += 200) {
                List<Instant> batch = passes.subList(from, Math.min(passes.size(), from + 200));
                s.db.write(() -> {
                    for (Instant t : batch) {
                        s.history.recordGpus(t, gpus, java.util.Map.of());
                        s.history.recordQueue(t);
                    }
                    return null;
                });
            }
            long rows = Long.parseLong(StoreFixtures.single(s.db.connection(), "SELECT count(*) FROM gpu_samples"));
            long perGpu = HistoryRepository.TIERS.stream().mapToLong(t -> t.keepS() / t.widthS()).sum();
            assertTrue(rows <= 64 * (perGpu + 3), rows + " rows for 64 GPUs");
            s.db.connection().createStatement().execute("VACUUM");
            long pages = Long.parseLong(StoreFixtures.single(s.db.connection(),
                    "SELECT count(*) FROM dbstat WHERE name = 'gpu_samples'"));
            long pageSize = Long.parseLong(StoreFixtures.single(s.db.connection(), "PRAGMA page_size"));
            long bytes = pages * pageSize;
            System.out.printf("history: 64 GPUs x 30 days = %d rows, %.1f MB (%.1f KB a GPU-day)%n", rows,
                    bytes / 1e6, bytes / 1e3 / 64 / 30);
            assertTrue(bytes <= 50_000_000L, bytes + " bytes");
            // A week is read from the hourly buckets: one a point.
            assertEquals(7 * 24, s.db.read(() -> s.history.gpu("gpu-box-3", 5, History.Range.WEEK, now)).size());
            assertEquals(60, s.db.read(() -> s.history.queue(History.Range.HOUR, now)).size());
        }
    }
}
