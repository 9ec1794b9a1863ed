package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster on one machine: local nodes, each with its own fake nvidia-smi standing in for the
 * GPUs and its own job root. Jobs run for real; only the GPUs are pretend.
 */
class ClusterSchedulingTest {
    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi alpha;
    FakeNvidiaSmi beta;

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp);
        alpha = FakeNvidiaSmi.install("alpha", tmp.resolve("alpha/bin"), tmp.resolve("alpha/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        beta = FakeNvidiaSmi.install("beta", tmp.resolve("beta/bin"), tmp.resolve("beta/state"))
                .gpu(0, "NVIDIA A100 80GB PCIe", 81920);
    }

    @AfterEach
    void stopJobs() throws Exception {
        // A cancelled job writes its exit files as it ends: none may still run when JUnit deletes tmp.
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("alpha-jobs"), tmp.resolve("beta-jobs"));
    }

    private void config(String extraQueue, String alphaExtra, boolean withBeta) throws Exception {
        StringBuilder y = new StringBuilder("queue:\n  tick_min_interval: 0.5\n  headroom_mb: 512\n  lane_spool_root: ")
                .append(tmp.resolve("spool")).append('\n');
        y.append(extraQueue);
        y.append("servers:\n");
        y.append(node("alpha", alpha, alphaExtra));
        if (withBeta) {
            y.append(node("beta", beta, ""));
        }
        cli.write(".nvidb/queue.yml", y.toString());
    }

    private String node(String name, FakeNvidiaSmi fake, String extra) {
        return "  - nickname: " + name + "\n    transport: local\n    nvidia_smi: " + fake.command() + "\n    job_root: "
                + tmp.resolve(name + "-jobs") + "\n" + extra;
    }

    private JsonNode gpu(String node, int index) {
        for (JsonNode n : cli.json("queue", "nodes", "--tick").path("nodes")) {
            if (n.path("name").asText().equals(node)) {
                for (JsonNode g : n.path("gpus")) {
                    if (g.path("index").asInt() == index) {
                        return g;
                    }
                }
            }
        }
        throw new AssertionError("no GPU " + node + ":" + index);
    }

    private JsonNode submit(String... args) {
        return cli.json(concat(new String[] {"job", "submit"}, args)).path("job");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void foreignMemoryShrinksFreeAndSendsTheJobToTheOtherGpu() throws Exception {
        config("", "", false);
        alpha.foreignProcess(424242, 0, 20000, "someone-elses-training");
        JsonNode g0 = gpu("alpha", 0);
        assertEquals(20000, g0.path("external_mem_mb").asInt());
        assertEquals(24564 - 20000 - 512, g0.path("free_mb").asInt());
        assertEquals(1, g0.path("external_procs").asInt());
        assertEquals(false, g0.path("processes").path(0).path("managed").asBoolean());
        JsonNode job = submit("--vram", "8G", "--", "sleep 30");
        assertEquals("running", job.path("state").asText(), job.toString());
        assertEquals("[1]", job.path("gpu_ids").toString());
        cli.json("job", "cancel", job.path("id").asText());
    }

    @Test
    void anUnderstatedReservationIsChargedItsMeasuredUse() throws Exception {
        config("", "", false);
        JsonNode job = submit("--vram", "1G", "--node", "alpha", "--", alpha.allocateSnippet(0, 10240) + "; sleep 30");
        assertEquals("[0]", job.path("gpu_ids").toString(), job.toString());
        LocalJobsTest.waitUntil(() -> gpu("alpha", 0).path("queue_mem_mb").asInt() == 10240, 15);
        JsonNode g = gpu("alpha", 0);
        assertEquals(10240, g.path("reserved_mb").asInt());
        assertEquals(0, g.path("external_mem_mb").asInt());
        assertEquals(24564 - 10240 - 512, g.path("free_mb").asInt());
        JsonNode proc = g.path("processes").path(0);
        assertTrue(proc.path("managed").asBoolean());
        assertEquals(job.path("id").asLong(), proc.path("job_id").asLong());
        assertEquals(10240, cli.json("job", "show", job.path("id").asText()).path("gpu_mem_mb").asInt());
        cli.json("job", "cancel", job.path("id").asText());
    }

    @Test
    void blindAttributionInfersTheForeignShareFromReservations() throws Exception {
        config("", "", false);
        alpha.mode(FakeNvidiaSmi.Mode.BLIND);
        alpha.baseUsed(0, 3000).baseUsed(1, 9000); // spread picks GPU 0, the emptier card
        JsonNode job = submit("--vram", "4G", "--node", "alpha", "--", alpha.allocateSnippet(0, 4096) + "; sleep 30");
        int index = job.path("gpu_ids").path(0).asInt();
        assertEquals(0, index, job.toString());
        LocalJobsTest.waitUntil(() -> gpu("alpha", index).path("queue_jobs").asInt() == 1, 15);
        JsonNode g = gpu("alpha", index);
        assertEquals("blind", g.path("attribution").asText());
        assertEquals(4096, g.path("reserved_mb").asInt());
        LocalJobsTest.waitUntil(() -> gpu("alpha", 0).path("mem_used_mb").asInt() == 3000 + 4096, 15);
        // The driver credits the job's 4096 MiB to no process: ours is inferred from the reservation.
        assertEquals(3000, gpu("alpha", 0).path("external_mem_mb").asInt());
        cli.json("job", "cancel", job.path("id").asText());
    }

    @Test
    void theAllowlistKeepsNewWorkOffOtherCards() throws Exception {
        config("", "    gpus: [1]\n", false);
        JsonNode job = submit("--vram", "1G", "--", "sleep 30");
        assertEquals("[1]", job.path("gpu_ids").toString(), job.toString());
        JsonNode second = submit("--vram", "1G", "--", "sleep 30");
        assertEquals("[1]", second.path("gpu_ids").toString());
        assertEquals(1, cli.json("queue", "status").path("nodes").path(0).path("gpus").size());
        assertEquals(2, cli.json("queue", "nodes").path("nodes").path(0).path("gpus").size());
        cli.json("job", "cancel", job.path("id").asText(), second.path("id").asText());
    }

    @Test
    void aTwoGpuJobGetsTwoCardsOfOneNode() throws Exception {
        config("", "", true);
        Path seen = tmp.resolve("cvd");
        JsonNode job = submit("--gpus", "2", "--vram", "2G", "--", "echo $CUDA_VISIBLE_DEVICES > " + seen);
        assertEquals("alpha", job.path("node").asText(), job.toString());
        assertEquals("[0,1]", job.path("gpu_ids").toString());
        cli.run("job", "wait", job.path("id").asText(), "--timeout", "20");
        assertEquals("0,1", Files.readString(seen).strip());
    }

    @Test
    void theCpuJobCapPerNodeHoldsBackExtraCpuJobs() throws Exception {
        config("  max_cpu_jobs_per_node: 1\n", "", false);
        JsonNode first = submit("--gpus", "0", "--", "sleep 3");
        JsonNode second = submit("--gpus", "0", "--", "true");
        assertEquals("running", first.path("state").asText());
        assertEquals("pending", second.path("state").asText());
        Cli.Result r = cli.run("job", "wait", second.path("id").asText(), "--timeout", "30");
        assertEquals(0, r.exit(), r.toString());
    }

    @Test
    void priorityOrderAndBackfill() throws Exception {
        config("", "", false);
        alpha.foreignProcess(5151, 0, 14000, "x").foreignProcess(5152, 1, 14000, "y");
        // 10,052 MiB free per card: the big job waits, the later small one passes it.
        JsonNode big = submit("--vram", "12G", "--priority", "5", "--", "sleep 20");
        JsonNode small = submit("--vram", "2G", "--", "sleep 20");
        assertEquals("pending", big.path("state").asText(), big.toString());
        assertEquals("running", small.path("state").asText(), small.toString());
        cli.json("job", "cancel", small.path("id").asText());
        // With the card full except for one job's worth, the higher priority goes first.
        JsonNode low = submit("--vram", "8G", "--gpus", "1", "--no-tick", "--", "sleep 20");
        JsonNode high = submit("--vram", "8G", "--gpus", "1", "--priority", "9", "--no-tick", "--", "sleep 20");
        alpha.clearForeign().foreignProcess(5153, 0, 24000, "full").foreignProcess(5154, 1, 14000, "y");
        cli.json("queue", "tick");
        assertEquals("running", cli.json("job", "show", high.path("id").asText()).path("state").asText());
        assertEquals("pending", cli.json("job", "show", low.path("id").asText()).path("state").asText());
        cli.json("job", "cancel", big.path("id").asText(), low.path("id").asText(), high.path("id").asText());
    }

    @Test
    void anAfterChainRunsInOrderAndAFailedLinkHolds() throws Exception {
        config("", "", false);
        Path log = tmp.resolve("order");
        JsonNode a = submit("--gpus", "0", "--", "sleep 1; echo a >> " + log);
        JsonNode b = submit("--gpus", "0", "--after", a.path("id").asText(), "--", "echo b >> " + log);
        JsonNode c = submit("--gpus", "0", "--after", b.path("id").asText(), "--", "echo c >> " + log + "; exit 2");
        JsonNode d = submit("--gpus", "0", "--after", c.path("id").asText(), "--", "echo d >> " + log);
        cli.run("job", "wait", c.path("id").asText(), "--timeout", "30");
        cli.json("queue", "tick");
        assertEquals(List.of("a", "b", "c"), Files.readAllLines(log));
        JsonNode held = cli.json("job", "show", d.path("id").asText());
        assertEquals("pending", held.path("state").asText());
        assertEquals("dependency " + c.path("id").asText() + " ended as failed", held.path("held_reason").asText());
    }

    @Test
    void aJobNoGpuCouldEverHoldFailsAtOnce() throws Exception {
        config("", "", true);
        Cli.Result r = cli.run("job", "submit", "--json", "--vram", "100G", "--", "true");
        assertEquals(1, r.exit(), r.toString());
        JsonNode job = r.json().path("job");
        assertEquals("failed", job.path("state").asText());
        assertTrue(job.path("last_error").asText().contains("the largest schedulable GPU (on beta"), job.toString());
        Cli.Result wide = cli.run("job", "submit", "--json", "--gpus", "3", "--", "true");
        assertEquals(1, wide.exit());
        assertTrue(wide.json().path("job").path("last_error").asText().contains("needs 3 GPU(s); alpha has 2"),
                wide.out());
        assertEquals("job_unschedulable", cli.run("queue", "alerts", "--json").json().path("alerts").path(0)
                .path("kind").asText());
    }

    @Test
    void aNodeWhoseNvidiaSmiFailsStaysUpAndRunsCpuJobs() throws Exception {
        config("", "", false);
        alpha.mode(FakeNvidiaSmi.Mode.FAILING);
        JsonNode job = submit("--gpus", "0", "--", "echo fine");
        JsonNode node = cli.json("queue", "nodes").path("nodes").path(0);
        assertEquals("up", node.path("state").asText());
        assertEquals(0, node.path("gpus").size());
        assertTrue(node.path("last_error").asText().contains("NVIDIA-SMI has failed"), node.toString());
        assertEquals(0, cli.run("job", "wait", job.path("id").asText(), "--timeout", "20").exit());
        JsonNode gpuJob = submit("--vram", "1G", "--", "true");
        assertEquals("pending", gpuJob.path("state").asText(), "a GPU job waits; it is not judged impossible");
    }

    @Test
    void laneJobsRunStrictlyInOrderOnTheLaneCardWhenTheSchedulerStartsThem() throws Exception {
        config("", "", false);
        cli.json("queue", "lane", "alpha:1", "runner", "off"); // the scheduler, not a runner, starts this lane's jobs
        Path log = tmp.resolve("lane.log");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(submit("--lane", "alpha:1", "--vram", "1G", "--no-tick", "--",
                    "echo start-$NVIDB_JOB_ID-$CUDA_VISIBLE_DEVICES >> " + log + "; sleep 1; echo end-$NVIDB_JOB_ID >> " + log)
                    .path("id").asText());
        }
        List<String> args = new ArrayList<>(List.of("job", "wait", "--timeout", "60"));
        args.addAll(ids);
        assertEquals(0, cli.run(args.toArray(String[]::new)).exit());
        List<String> expected = new ArrayList<>();
        for (String id : ids) {
            expected.add("start-" + id + "-1");
            expected.add("end-" + id);
        }
        assertEquals(expected, Files.readAllLines(log), "one at a time, in lane order, on GPU 1");
    }

    @Test
    void fourProcessesTickingAtOnceNeverStartAJobTwice() throws Exception {
        config("", "", true);
        Path marks = tmp.resolve("marks");
        Files.createDirectories(marks);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(submit("--gpus", "0", "--no-tick", "--", "echo started >> " + marks + "/$NVIDB_JOB_ID; sleep 1")
                    .path("id").asText());
        }
        List<Process> tickers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            tickers.add(cli.shell("for i in 1 2 3 4 5 6; do nvidb queue tick --json > /dev/null || exit 1; done"));
        }
        for (Process p : tickers) {
            Cli.Result r = Cli.finish(p, 300);
            assertEquals(0, r.exit(), r.toString());
        }
        List<String> waitArgs = new ArrayList<>(List.of("job", "wait", "--timeout", "60"));
        waitArgs.addAll(ids);
        assertEquals(0, cli.run(waitArgs.toArray(String[]::new)).exit());
        for (String id : ids) {
            assertEquals(List.of("started"), Files.readAllLines(marks.resolve(id)), "job " + id + " started once");
        }
    }
}
