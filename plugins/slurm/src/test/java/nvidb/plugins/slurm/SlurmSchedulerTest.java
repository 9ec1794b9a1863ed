package nvidb.plugins.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import nvidb.spi.PluginFactory;
import nvidb.spi.PluginKind;
import nvidb.spi.batch.BatchLimits;
import nvidb.spi.batch.BatchPhase;
import nvidb.spi.batch.BatchPoll;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.batch.BatchSubmission;
import nvidb.spi.config.ConfigException;
import nvidb.spi.transport.TransportFactory;
import nvidb.testkit.ConfigSections;
import org.junit.jupiter.api.Test;

/** What the slurm plugin reads from Slurm's clients, and what it asks of them (the real ones run in SlurmNodesTest). */
class SlurmSchedulerTest {
    private static SlurmScheduler scheduler(Map<String, Object> entry) {
        return new SlurmScheduler(SlurmSettings.of(entry));
    }

    @Test
    void aPollReadsEveryJobAndThePartitionsGpusOfUsableNodesOnly() {
        BatchPoll poll = scheduler(Map.of("partition", "gpu")).parsePoll("""
                squeue_rc=0
                J|11|RUNNING|None
                J|12|PENDING|Resources
                J|13|NODE_FAIL|None
                J|14|CANCELLED|None
                sinfo_rc=0
                N|a1|gpu:a100:4(S:0-1)|gpu:a100:3(IDX:0-2)|mixed|
                N|a2|gpu:4,shard:8|gpu:0,shard:0|idle|
                N|a3|gpu:4|gpu:0|drained|
                """);
        assertEquals(8, poll.gpusTotal(), "a3 is drained: its GPUs are not the partition's capacity");
        assertEquals(3, poll.gpusAllocated());
        assertEquals(5, poll.gpusIdle());
        assertEquals(BatchPhase.RUNNING, poll.jobs().get("11").phase());
        assertEquals("Resources", poll.jobs().get("12").reason());
        assertEquals(BatchPhase.QUEUED, poll.jobs().get("12").phase());
        assertEquals(BatchPhase.NODE_FAILED, poll.jobs().get("13").phase());
        assertEquals(BatchPhase.CANCELLED, poll.jobs().get("14").phase());
        assertEquals(null, poll.jobs().get("11").reason(), "None is no reason");
    }

    @Test
    void slurmsStatesMapOntoWhatCoreDoes() {
        assertEquals(BatchPhase.QUEUED, SlurmScheduler.phase("REQUEUED"));
        assertEquals(BatchPhase.RUNNING, SlurmScheduler.phase("COMPLETING"));
        assertEquals(BatchPhase.ENDED, SlurmScheduler.phase("OUT_OF_MEMORY"));
        assertEquals(BatchPhase.TIMED_OUT, SlurmScheduler.phase("TIMEOUT"));
        assertEquals(BatchPhase.PREEMPTED, SlurmScheduler.phase("PREEMPTED"));
    }

    @Test
    void aControllerThatDoesNotAnswerOrAMissingPartitionIsAnErrorNotAnEmptyQueue() {
        SlurmScheduler s = scheduler(Map.of("partition", "gpu"));
        IllegalStateException down = assertThrows(IllegalStateException.class, () -> s.parsePoll("""
                squeue_rc=124
                sinfo_rc=1
                N|sinfo: error: Unable to contact slurm controller (connect failure)
                """));
        assertTrue(down.getMessage().contains("squeue failed (exit 124)"), down.getMessage());
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> s.parsePoll("sinfo_rc=0\nN|\n"));
        assertTrue(missing.getMessage().contains("partition gpu was not found"), missing.getMessage());
    }

    @Test
    void theSubmissionNamesThePartitionGpusTimeAndNameAndQuotesEveryValue() {
        String f = scheduler(Map.of("partition", "gpu", "account", "lab's", "extra_args", List.of("--mem=64G"),
                "slurm_timeout", 7L)).submitFunction(new BatchSubmission(42, 2, 61));
        assertTrue(f.contains("sbatch --parsable '--partition=gpu' '--account=lab'\\''s' '--job-name=nvidb-42'"
                + " '--gres=gpu:2' --time=2"), f);
        assertTrue(f.contains("'--mem=64G' batch.sh"), f);
        assertTrue(f.contains("timeout 7"), f);
        String poll = scheduler(Map.of("partition", "gpu")).pollFunction(List.of("12", "13_1", "x; rm -rf /"));
        assertTrue(poll.contains("--jobs=12,13_1 "), "only ids as Slurm writes them reach the line: " + poll);
        assertEquals(1, poll.split("squeue ", -1).length - 1, "one squeue for all jobs: " + poll);
    }

    @Test
    void anEntryWithoutAPartitionOrWithAWrongSizeIsRefusedNamingTheKey() {
        SlurmSchedulerFactory f = new SlurmSchedulerFactory();
        ConfigException e = assertThrows(ConfigException.class, () -> f.validate(ConfigSections.section("servers[0]",
                "queue.yml", 3, "transport", "slurm", "login", "local")));
        assertTrue(e.getMessage().contains("partition"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> f.validate(ConfigSections.section("servers[0]", "queue.yml", 3,
                "transport", "slurm", "partition", "gpu", "gpu_vram", "lots")));
        assertTrue(e.getMessage().contains("gpu_vram") && e.getMessage().contains("line 5"), e.getMessage());
        assertEquals(81920, SlurmSettings.sizeMb("80G"));
    }

    @Test
    void itIsABatchSchedulerNamedSlurmFoundByServiceLoaderAndNoTransport() {
        List<PluginFactory> found = new ArrayList<>();
        ServiceLoader.load(BatchSchedulerFactory.class).forEach(found::add);
        ServiceLoader.load(TransportFactory.class).forEach(found::add);
        assertEquals(1, found.size(), found.toString());
        assertEquals("slurm", found.getFirst().name());
        assertEquals(PluginKind.BATCH_SCHEDULER, found.getFirst().kind());
        BatchScheduler s = ((BatchSchedulerFactory) found.getFirst()).create(Map.of("partition", "gpu", "max_jobs", 4L,
                "burst", true, "gpu_vram", "80G"));
        assertEquals("slurm", s.system());
        assertEquals(new BatchLimits(81920, 4, true), s.limits());
    }
}
