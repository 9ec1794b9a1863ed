package nvidb.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.TickSummary;
import nvidb.core.config.QueueSettings;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two rules behind {@code queue usage}'s energy and idle time, with fixed instants: a GPU's
 * power is split evenly among the queue jobs on it (Capacity), and a look meters the time since the
 * node's previous look, at most ten minutes (UsageWatch), into the job's row.
 */
class UsageMeteringTest {
    static final Instant T = Instant.parse("2026-11-10T00:00:00Z");

    @TempDir
    Path tmp;

    private static Job job(long id, int gpus, List<Integer> gpuIds, Instant started) {
        return new Job(id, "", JobState.RUNNING, "true", null, Map.of(), 0, gpus, 1024, "box", List.of(), List.of(),
                null, "t", List.of(), T, T, started, null, "box", gpuIds, null, null, null, null, null, null, 0, 0,
                null, null, null, null, null, null, null, null, null);
    }

    private static GpuSnapshot gpu(int index, Integer util, Double watts) {
        return new GpuSnapshot(index, "GPU-" + index, "A100", 81920, 0, util, 0, 40, Attribution.PROCESSES, List.of(),
                watts);
    }

    @Test
    void eachGpusPowerIsSplitEvenlyAmongTheQueueJobsOnIt() {
        Job both = job(1, 2, List.of(0, 1), T);
        Job shares = job(2, 1, List.of(0), T);
        Job unmetered = job(3, 1, List.of(2), T);
        Capacity.NodeCapacity c = Capacity.account("box", List.of(gpu(0, 50, 300.0), gpu(1, 10, 200.0), gpu(2, 0, null)),
                Map.of(), List.of(both, shares, unmetered), 0, T);
        assertEquals(300 / 2.0 + 200, c.samples().get(1L).powerW(), "half of GPU 0 and all of GPU 1");
        assertEquals(150.0, c.samples().get(2L).powerW(), "the other half of GPU 0");
        assertNull(c.samples().get(3L).powerW(), "its GPU reported no power.draw");
        assertEquals(Map.of(0, 300.0, 1, 200.0), c.powerByGpu());
        assertEquals(30.0, c.samples().get(1L).utilPercent());
    }

    @Test
    void aLookStandsForTheTimeSinceThePreviousLookOrTheStartAtMostTenMinutes() {
        Job j = job(1, 1, List.of(0), T);
        assertEquals(30.0, UsageWatch.metered(j, T.plusSeconds(30), null), "the first look: since the start");
        assertEquals(30.0, UsageWatch.metered(j, T.plusSeconds(30), T.minusSeconds(100)), "a look before the start");
        assertEquals(12.5, UsageWatch.metered(j, T.plusMillis(42_500), T.plusSeconds(30)));
        assertEquals(600.0, UsageWatch.metered(j, T.plusSeconds(7200), T.plusSeconds(60)), "a gap: ten minutes");
        assertEquals(0.0, UsageWatch.metered(j, T.plusSeconds(5), T.plusSeconds(10)), "a clock that went back");
    }

    @Test
    void looksAddTheJobsJoulesAndIdleGpuSecondsToItsRow() throws Exception {
        try (PassFixture f = new PassFixture(tmp)) {
            long id = f.submit(PassFixture.job(1024, null, List.of()));
            Job j = job(id, 2, List.of(0, 1), T);
            UsageWatch watch = new UsageWatch(f.store, QueueSettings.Learning.DEFAULTS); // idle at or under 2 %
            TickSummary.Builder summary = new TickSummary.Builder();
            f.store.db.write(() -> {
                // 30 s at 350 W, idle (1 %): 10,500 J and 2 GPUs × 30 s idle.
                watch.look(j, new Capacity.Sample(null, 1.0, 350.0), T.plusSeconds(30), null, summary);
                // 15 s at 100 W, busy: 1,500 J.
                watch.look(j, new Capacity.Sample(null, 80.0, 100.0), T.plusSeconds(45), T.plusSeconds(30), summary);
                // An hour later with no power and no utilisation: nothing.
                watch.look(j, new Capacity.Sample(null, null, null), T.plusSeconds(3645), T.plusSeconds(45), summary);
                // An hour later again at 10 W, idle: ten minutes of it, 6,000 J and 2 × 600 GPU-s.
                watch.look(j, new Capacity.Sample(null, 2.0, 10.0), T.plusSeconds(7245), T.plusSeconds(3645), summary);
                return null;
            });
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve("queue.db"));
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT energy_j, idle_gpu_s FROM jobs WHERE id = " + id)) {
                rs.next();
                assertEquals(10_500 + 1_500 + 6_000, rs.getDouble(1));
                assertEquals(2 * 30 + 2 * 600, rs.getDouble(2));
            }
        }
    }
}
