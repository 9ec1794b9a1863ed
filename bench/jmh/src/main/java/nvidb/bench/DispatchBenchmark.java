package nvidb.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.config.QueueSettings;
import nvidb.core.config.NodeKind;
import nvidb.core.config.ServerConfig;
import nvidb.core.scheduler.PlacementPlanner;
import nvidb.plugins.placement.SpreadPolicyFactory;
import nvidb.spi.placement.PlacementPolicy;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * One dispatch pass deciding 10,000 pending jobs over 32 nodes × 8 GPUs from in-memory budgets
 * (target: under 20 ms). Jobs mix CPU work, one- and multi-GPU requests and impossible ones, so
 * the pass exercises the unschedulable check, placement and budget charging.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(1)
public class DispatchBenchmark {
    static final int NODES = 32;
    static final int GPUS = 8;
    static final int JOBS = 10_000;

    QueueSettings settings;
    PlacementPolicy policy;
    List<NodeRecord> nodes;
    List<ServerConfig> servers;
    List<GpuState> gpus;
    List<Job> pending;

    @Setup
    public void setUp() {
        settings = QueueSettings.defaults();
        policy = new SpreadPolicyFactory().create();
        nodes = new ArrayList<>();
        servers = new ArrayList<>();
        gpus = new ArrayList<>();
        Instant now = Instant.now();
        for (int n = 0; n < NODES; n++) {
            String name = "node-" + n;
            servers.add(new ServerConfig(name, name, 22, "u", null, new NodeKind.Workstation("ssh"), null, "nvidia-smi",
                    null, Map.of()));
            nodes.add(new NodeRecord(name, name, 22, "u", NodeState.UP, true, false, now, null, GPUS, now, n));
            for (int g = 0; g < GPUS; g++) {
                long external = (n * 7L + g * 13L) % 9000;
                gpus.add(new GpuState(name, g, "GPU-" + n + "-" + g, "NVIDIA A100", 81920, (int) external, 10, 5, 40,
                        external, external > 0 ? 1 : 0, 0, 0, 0, "processes", List.of(), 81920 - external - 512, now));
            }
        }
        pending = new ArrayList<>();
        for (int i = 1; i <= JOBS; i++) {
            int gpusWanted = i % 10 == 0 ? 0 : i % 17 == 0 ? 4 : i % 5 == 0 ? 2 : 1;
            long vram = i % 97 == 0 ? 200_000 : 1024L * (1 + i % 40);
            pending.add(job(i, i % 3, gpusWanted, vram));
        }
        pending.sort(PlacementPlanner.ORDER);
    }

    static Job job(long id, int priority, int gpus, long vram) {
        Instant t = Instant.now();
        return new Job(id, "job" + id, JobState.PENDING, "python train.py", null, Map.of(), priority, gpus, vram, null,
                List.of(), List.of(), null, "bench", List.of(), t, t, null, null, null, List.of(), null, null, null, null,
                null, null, 0, 0, null, null, null, null, null, null, null, null, null);
    }

    @Benchmark
    public void dispatchTenThousandJobs(Blackhole bh) {
        PlacementPlanner d = new PlacementPlanner(settings, policy, nodes, servers, gpus, List.of());
        var excluded = new HashSet<String>();
        int placed = 0;
        for (Job j : pending) {
            if (d.unschedulable(j).isPresent()) {
                continue;
            }
            var c = d.choose(j, excluded);
            if (c.isPresent()) {
                d.charge(j, c.get());
                placed++;
            }
        }
        bh.consume(placed);
    }
}
