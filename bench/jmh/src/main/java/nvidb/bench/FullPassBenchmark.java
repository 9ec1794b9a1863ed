package nvidb.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.TickSummary;
import nvidb.core.config.NodeKind;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.QueueSettings;
import nvidb.core.config.ServerConfig;
import nvidb.core.delivery.AlertDeliveryPass;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.NodeConnections;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.scheduler.Scheduler;
import nvidb.core.store.JobRepository;
import nvidb.core.store.Store;
import nvidb.plugins.placement.SpreadPolicyFactory;
import nvidb.plugins.probe.nvidiasmi.NvidiaSmiProbeFactory;
import nvidb.spi.alert.SinkContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One whole scheduler pass ({@code Scheduler.tick}, forced) over 32 nodes × 8 GPUs that answer
 * from memory ({@link MemoryNodes}): probe every node in parallel and parse the answers, settle
 * 224 running jobs (all alive), enforce timeouts, gate 100 jobs waiting on a running one, and
 * dispatch 1,000 pending 40 GB jobs onto the 32 free cards (32 launches, each recorded in the
 * queue file). Every invocation starts from the same queue file, copied from a template; the
 * file lives in /dev/shm where there is one, so that the figure is nvidb's work and not the
 * disk's fsync (a submit's durability is the disk's business, measured whole by bench/run).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(1)
public class FullPassBenchmark {
    static final int NODES = 32;
    static final int RUNNING = 224;
    static final int PENDING = 1_000;
    static final int WAITING = 100;

    Path dir;
    Path template;
    Path work;
    QueueConfig config;
    MemoryNodes memory;
    PluginRegistry plugins;
    Store store;
    NodeConnections nodes;
    Scheduler scheduler;

    @Setup(Level.Trial)
    public void buildTemplate() throws IOException {
        Path shm = Path.of("/dev/shm");
        dir = Files.createTempDirectory(Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
                "nvidb-pass-bench");
        template = dir.resolve("template.db");
        work = dir.resolve("queue.db");
        List<ServerConfig> servers = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            servers.add(new ServerConfig(String.format("node%02d", n), "node" + n, 22, "bench", null,
                    new NodeKind.Workstation(MemoryNodes.NAME), null, null, "/jobs", Map.of()));
        }
        config = new QueueConfig(QueueSettings.defaults(), servers, null);
        memory = new MemoryNodes();
        plugins = PluginRegistry.of(List.of(new PluginEntry(memory, "bench"), new PluginEntry(new NvidiaSmiProbeFactory(), "bench"),
                new PluginEntry(new SpreadPolicyFactory(), "bench")));
        open(template);
        store.db.write(() -> {
            for (int n = 0; n < NODES; n++) {
                store.nodes.upsertConfigured(servers.get(n).name(), servers.get(n).hostname(), 22, "bench", n);
            }
            return null;
        });
        JobLifecycle lifecycle = new JobLifecycle(store);
        for (int i = 0; i < RUNNING; i++) {
            lifecycle.submit(job(List.of()), "bench", Instant.now());
        }
        TickSummary first = scheduler.tick(true, () -> Duration.ZERO);
        check(first.dispatched().size() == RUNNING && first.errors().isEmpty(), "the first pass started " + first.dispatched().size()
                + " jobs, errors " + first.errors());
        for (int i = 0; i < PENDING; i++) {
            lifecycle.submit(job(i < WAITING ? List.of(1L) : List.of()), "bench", Instant.now());
        }
        close();
        // Closing the last connection folds the WAL into the file: the template is one file.
        Files.deleteIfExists(dir.resolve("template.db-wal"));
        open(work, template);
        TickSummary pass = scheduler.tick(true, () -> Duration.ZERO);
        check(pass.dispatched().size() == NODES * MemoryNodes.GPUS - RUNNING && pass.errors().isEmpty(),
                "a measured pass would start " + pass.dispatched().size() + " jobs, errors " + pass.errors());
        close();
        System.out.println("FullPassBenchmark: queue file in " + dir + "; scripts answered while building: " + memory.answered);
    }

    private static JobRepository.NewJob job(List<Long> after) {
        return new JobRepository.NewJob("train", "python train.py", "/work", Map.of(), 0, 1, 40_960, null, after, List.of(),
                null, "bench@host:1", List.of(), null, null, 0, null, null);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("FullPassBenchmark setup: " + what);
        }
    }

    @Setup(Level.Invocation)
    public void freshQueue() throws IOException {
        open(work, template);
    }

    private void open(Path file, Path from) throws IOException {
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
        }
        Files.copy(from, file, StandardCopyOption.REPLACE_EXISTING);
        open(file);
    }

    private void open(Path file) {
        store = Store.open(file);
        nodes = new NodeConnections(config, plugins);
        // No sink is configured in this queue: the delivery pass finds nothing to send.
        scheduler = new Scheduler(store, config, plugins, nodes,
                new AlertDeliveryPass(store, config, plugins, new SinkContext(file.getParent())));
    }

    @Benchmark
    public TickSummary fullPassOver32Nodes() {
        return scheduler.tick(true, () -> Duration.ZERO);
    }

    @TearDown(Level.Invocation)
    public void close() {
        nodes.close();
        store.close();
    }

    @TearDown(Level.Trial)
    public void removeFiles() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }
}
