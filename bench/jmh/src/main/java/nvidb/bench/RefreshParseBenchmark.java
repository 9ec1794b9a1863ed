package nvidb.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.node.NodeProbeScript;
import nvidb.core.node.NodeReport;
import nvidb.core.scheduler.Capacity;
import nvidb.plugins.probe.nvidiasmi.NvidiaSmiProbeFactory;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeSettings;
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
 * One refresh step of one node: split a probe answer (8 GPUs, 200 GPU processes, a 400-row
 * process table, 20 job directories), parse the nvidia-smi section, and account the GPUs
 * (target: under 1 ms).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(1)
public class RefreshParseBenchmark {
    static final String MARKER = "@@nvidb-0123456789abcdef";

    String answer;
    Probe probe;
    List<Job> running;

    @Setup
    public void setUp() {
        probe = new NvidiaSmiProbeFactory().create(new ProbeSettings("nvidia-smi"));
        StringBuilder sb = new StringBuilder();
        sb.append(MARKER).append(" node\nkernel=6.1.0-18-amd64\nhome=/home/u\n");
        sb.append(MARKER).append(" ps\n");
        for (int pid = 1000; pid < 1400; pid++) {
            sb.append(' ').append(pid).append(' ').append(pid < 1200 ? 5000 + (pid % 20) : pid).append(" u python train.py --seed ")
                    .append(pid).append('\n');
        }
        sb.append(MARKER).append(" gpu\n@@nvidb-gpus rc=0\n");
        for (int g = 0; g < 8; g++) {
            sb.append(g).append(", GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a1").append(g)
                    .append(", NVIDIA A100-SXM4-80GB, 81920, ").append(20000 + g * 100).append(", 97, 61, 66\n");
        }
        sb.append("@@nvidb-apps rc=0\n");
        for (int i = 0; i < 200; i++) {
            sb.append(1000 + i).append(", GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a1").append(i % 8).append(", ")
                    .append(100 + i).append(", /usr/bin/python3.11\n");
        }
        sb.append("@@nvidb-gpus-end\n");
        running = new ArrayList<>();
        for (int j = 0; j < 20; j++) {
            sb.append(MARKER).append(" job ").append(j + 1).append("\npid=").append(5000 + j).append("\npgid=")
                    .append(5000 + j).append("\nsession=1\nalive=1\nexit=\nstarted=1796206050\n");
            sb.append(MARKER).append(" status ").append(j + 1).append("\nepoch ").append(j).append("/100 loss 0.123\n\n");
            Instant t = Instant.now();
            running.add(new Job(j + 1, "job" + j, JobState.RUNNING, "python train.py", null, Map.of(), 0, 1, 4096, null,
                    List.of(), List.of(), null, "bench", List.of(), t, t, t, null, "node", List.of(j % 8), null, null,
                    5000 + j, 5000 + j, "/home/u/.nvidb/jobs/" + (j + 1), null, 1, 0, null, t, null, null, null, null,
                    null, null, null));
        }
        sb.append(MARKER).append(" end\n");
        answer = sb.toString();
    }

    @Benchmark
    public Capacity.NodeCapacity refreshOneNode() {
        NodeReport report = new NodeProbeScript(MARKER).parse(answer);
        GpuReport gpus = probe.parse(report.gpuOutput());
        Map<Integer, Capacity.ProcessInfo> ps = new HashMap<>();
        report.processes().forEach((pid, row) -> ps.put(pid, new Capacity.ProcessInfo(row.pgid(), row.user(),
                row.command())));
        return Capacity.account("node", gpus.gpus(), ps, running, 512, Instant.now());
    }
}
