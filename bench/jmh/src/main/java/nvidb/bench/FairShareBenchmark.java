package nvidb.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.config.LabSettings;
import nvidb.core.lab.FairShare;
import nvidb.core.store.LabRepository.GpuRun;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What fair share adds to a pass: each user's decayed GPU time from the runs of the window (5,000
 * finished and 200 running, 20 users with weights 1 to 3), their standings, and the free pool's
 * order over 10,000 pending jobs from those 20 users — everything but the one read of the runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(1)
public class FairShareBenchmark {
    static final int USERS = 20;
    static final int PENDING = 10_000;
    static final int RUNS = 5_000;

    LabSettings lab;
    List<GpuRun> runs;
    List<Job> pending;
    Set<String> active;
    Instant now;

    @Setup
    public void setUp() {
        Random r = new Random(42);
        now = Instant.now();
        Map<String, LabSettings.UserPolicy> users = new java.util.HashMap<>();
        for (int u = 0; u < USERS; u++) {
            users.put("user" + u, new LabSettings.UserPolicy(null, null, null, null, 1 + u % 3));
        }
        lab = new LabSettings(LabSettings.UserPolicy.UNLIMITED, users, true, Duration.ofDays(7));
        runs = new ArrayList<>();
        for (int i = 0; i < RUNS + 200; i++) {
            Instant start = now.minusSeconds(r.nextInt(60 * 86_400));
            Instant end = i >= RUNS ? null : start.plusSeconds(60 + r.nextInt(12 * 3600));
            runs.add(new GpuRun("user" + r.nextInt(USERS), 1 + r.nextInt(4), start, end));
        }
        pending = new ArrayList<>();
        active = new HashSet<>();
        for (int i = 1; i <= PENDING; i++) {
            String user = "user" + r.nextInt(USERS);
            active.add(user);
            pending.add(job(i, user, r.nextInt(3)));
        }
    }

    static Job job(long id, String user, int priority) {
        Instant t = Instant.now();
        return new Job(id, "job" + id, JobState.PENDING, "python train.py", null, Map.of(), priority, 1, 8192, null,
                List.of(), List.of(), null, "bench", List.of(), t, t, null, null, null, List.of(), null, null, null, null,
                null, null, 0, 0, null, null, null, null, null, null, null, null, null,
                nvidb.core.api.Job.Learned.NONE, user, null);
    }

    @Benchmark
    public List<Job> orderTenThousandPendingJobsOfTwentyUsers() {
        Map<String, Double> usage = FairShare.usage(runs, now, lab.halfLife());
        Map<String, FairShare.Standing> standings = FairShare.standings(usage, active, lab);
        return FairShare.sorted(pending, standings); // as the pass orders them
    }
}
