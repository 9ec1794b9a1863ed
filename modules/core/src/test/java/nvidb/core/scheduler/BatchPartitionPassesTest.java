package nvidb.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.TickSummary;
import nvidb.core.config.NodeKind;
import nvidb.core.config.ServerConfig;
import nvidb.core.lifecycle.BatchLifecycle;
import nvidb.core.node.ConfiguredNode;
import nvidb.spi.batch.BatchLimits;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.batch.BatchSubmission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch partition beside the workstation {@code box}: a batch scheduler plugin of its own kind
 * (here a fake whose shell only writes files), whose functions core runs over the transport of
 * the partition's login (the same real sh). The passes tell the two nodes apart by their type.
 */
class BatchPartitionPassesTest {
    @TempDir
    Path tmp;
    private PassFixture f;

    /** Submits by answering id 4242, records each cancel, and says the partition has 4 GPUs, 1 of them taken. */
    private record FakeFactory(Path marks) implements BatchSchedulerFactory {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public BatchScheduler create(Map<String, Object> entry) {
            String cancelled = marks.resolve("cancelled").toString();
            return new BatchScheduler() {
                @Override
                public String system() {
                    return "fake";
                }

                @Override
                public BatchLimits limits() {
                    return new BatchLimits(((Number) entry.get("gpu_vram_mb")).longValue(), 0, true);
                }

                @Override
                public String submitFunction(BatchSubmission job) {
                    return "echo " + (4241 + job.gpus()) + "\n";
                }

                @Override
                public String pollFunction(List<String> ids) {
                    return "echo 'fake 4 1 " + String.join(",", ids) + "'\n";
                }

                @Override
                public BatchPoll parsePoll(String output) {
                    String[] f = output.strip().split(" ");
                    return new BatchPoll(Map.of(), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                            Integer.parseInt(f[1]) - Integer.parseInt(f[2]));
                }

                @Override
                public String cancelFunction() {
                    return "echo \"$1\" > '" + cancelled + "'\n";
                }
            };
        }
    }

    @BeforeEach
    void open() {
        ServerConfig cluster = new ServerConfig("cluster", "login", 22, null, null,
                new NodeKind.BatchPartition("fake", "test-sh"), null, null, tmp.resolve("cluster-jobs").toString(),
                Map.of("gpu_vram_mb", 81920L));
        f = new PassFixture(tmp, List.of(cluster), List.of(new PluginEntry(new FakeFactory(tmp), "test")));
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void eachNodeIsAWorkstationOrABatchPartitionByItsEntry() {
        assertInstanceOf(ConfiguredNode.Workstation.class, f.nodes.node(PassFixture.NODE).orElseThrow());
        ConfiguredNode.BatchPartition cluster = assertInstanceOf(ConfiguredNode.BatchPartition.class,
                f.nodes.node("cluster").orElseThrow());
        assertEquals("fake", cluster.scheduler().system());
        assertEquals(81920, cluster.scheduler().limits().gpuVramMb(), "made from the entry's keys");
        assertTrue(f.nodes.node("gone").isEmpty());
    }

    @Test
    void theRefreshObservesThePartitionThroughItsSchedulerOverTheLoginTransport() {
        NodeRefreshPass refresh = new NodeRefreshPass(f.store, f.config, f.nodes, new NodeKills(f.nodes));
        TickSummary.Builder summary = new TickSummary.Builder();
        List<Observation> seen = refresh.probe(summary);

        assertInstanceOf(Observation.Reached.class, seen.stream().filter(o -> o.node().name().equals("box"))
                .findFirst().orElseThrow());
        Observation.BatchReached cluster = assertInstanceOf(Observation.BatchReached.class, seen.stream()
                .filter(o -> o.node().name().equals("cluster")).findFirst().orElseThrow());
        assertEquals(new BatchPoll(Map.of(), 4, 1, 3), cluster.poll());
        refresh.recordBatch(cluster, summary);
        NodeRecord row = f.store.db.read(() -> f.store.nodes.find("cluster")).orElseThrow();
        assertEquals(NodeState.UP, row.state());
        assertEquals(4, row.gpuCount());
        assertEquals(List.of(81920, 0, 0, 0), f.store.db.read(() -> f.store.gpus.all(0)).stream()
                .filter(g -> g.node().equals("cluster")).map(GpuState::memUsedMb).toList(),
                "the partition's allocated GPU is shown in use, its memory the scheduler's gpu_vram");
    }

    @Test
    void aJobHandedToThePartitionIsSubmittedAndCancelledThroughItsScheduler() throws Exception {
        long id = f.submit(PassFixture.job(1024, null, List.of()));
        Job job = f.find(id);
        NodeKills kills = new NodeKills(f.nodes);
        Launcher launcher = new Launcher(f.config, f.nodes, f.lifecycle, kills);
        BatchDispatch dispatch = new BatchDispatch(f.config, f.nodes, new BatchLifecycle(f.store), launcher, kills,
                f.lifecycle);
        ConfiguredNode.BatchPartition cluster = (ConfiguredNode.BatchPartition) f.nodes.node("cluster").orElseThrow();

        assertTrue(dispatch.submit(job, cluster, new TickSummary.Builder()));

        Job handed = f.find(id);
        assertEquals("cluster", handed.node());
        assertEquals("4242", f.store.db.read(() -> f.store.batch.find(id)).orElseThrow().batchId());
        assertEquals("4242\n", Files.readString(Path.of(handed.runDir(), "batch_id")));
        assertTrue(kills.terminate("cluster", handed.runDir(), 0, null), "a batch job is cancelled, not signalled");
        assertEquals("4242\n", Files.readString(tmp.resolve("cancelled")));
    }
}
