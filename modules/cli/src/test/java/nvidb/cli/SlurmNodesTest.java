package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.SlurmFixture;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Slurm partition as a node: a real single-host Slurm on loopback (testkit {@link SlurmFixture},
 * two fake GPUs), one for the whole class, driven through the real command line, the slurm
 * batch scheduler and the transport to its login (this host, or a real sshd on loopback).
 */
class SlurmNodesTest {
    private static SlurmFixture slurm;

    @TempDir
    static Path shared;
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeAll
    static void startSlurm() {
        assumeTrue(SlurmFixture.available(), SlurmFixture.unavailable());
        slurm = SlurmFixture.start(shared.resolve("slurm"), 2);
        System.out.println("slurm fixture started in " + slurm.startTime().toMillis() + " ms");
    }

    @AfterAll
    static void stopSlurm() {
        if (slurm != null) {
            slurm.close();
        }
    }

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp);
    }

    @AfterEach
    void cancelEverything() {
        if (slurm != null) {
            slurm.cancelAll(); // a test's leftovers must not hold the next test's GPUs
        }
    }

    /** The cluster's entry: login local unless {@code login} says more. */
    private String cluster(String extra) {
        return "  - nickname: cluster\n    transport: slurm\n    partition: " + slurm.partition() + "\n"
                + "    slurm_conf: " + slurm.conf() + "\n    slurm_timeout: 5\n    gpu_vram: 80G\n"
                + "    job_root: " + tmp.resolve("cluster-jobs") + "\n" + (extra.contains("login:") ? "" : "    login: local\n")
                + extra;
    }

    private void config(String queueExtra, String servers) throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0\n  probe_timeout: 20\n  launch_timeout: 20\n"
                + queueExtra + "servers:\n" + servers);
    }

    private long submit(String... args) {
        return cli.json(prepend("job", "submit", args)).path("job").path("id").asLong();
    }

    private static String[] prepend(String a, String b, String... rest) {
        String[] all = new String[rest.length + 2];
        all[0] = a;
        all[1] = b;
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }

    private JsonNode show(long id) {
        return cli.json("job", "show", String.valueOf(id));
    }

    private JsonNode waitEnd(long id, int seconds) {
        Cli.Result r = cli.run("job", "wait", String.valueOf(id), "--timeout", String.valueOf(seconds), "--json");
        assertTrue(r.exit() == 0 || r.exit() == 1, r.toString());
        return r.json().path("jobs").path(0);
    }

    private void waitState(long id, String state, int seconds) throws Exception {
        LocalJobsTest.waitUntil(() -> show(id).path("state").asText().equals(state), seconds);
    }

    private String slurmId(long id) {
        String sid = show(id).path("batch").path("id").asText();
        assertTrue(!sid.isEmpty(), "no slurm id recorded: " + show(id));
        return sid;
    }

    /** sh that waits until {@code marker} exists: a job that runs exactly as long as the test needs. */
    private static String until(Path marker) {
        return "while [ ! -e " + marker + " ]; do sleep 0.2; done";
    }

    @Test
    void pinnedJobsRunInSlurmWaitWithItsReasonAndReportBack() throws Exception {
        config("", cluster(""));
        Path go = tmp.resolve("go");
        String script = "echo 'step 1/1' > \"$NVIDB_STATUS_FILE\"; echo \"{\\\"node\\\": \\\"$NVIDB_NODE\\\"}\" > "
                + "\"$NVIDB_JOB_DIR/result.json\"; echo \"gpus=$CUDA_VISIBLE_DEVICES node=$NVIDB_NODE\"; " + until(go);
        long t0 = System.nanoTime();
        JsonNode a = cli.json("job", "submit", "--node", "cluster", "--gpus", "2", "--", script).path("job");
        long first = a.path("id").asLong();
        assertEquals("pending", a.path("state").asText(), a.toString());
        assertEquals("cluster", a.path("node").asText(), a.toString());
        String sid = slurmId(first);
        LocalJobsTest.waitUntil(() -> slurm.state(sid).equals("RUNNING"), 20);
        System.out.println("submit -> slurm RUNNING: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        assertEquals("nvidb-" + first, slurm.client("squeue", "-h", "-j", sid, "-o", "%j").out().strip());

        // The partition's two GPUs are taken: the next job waits in Slurm, and says why.
        long second = submit("--node", "cluster", "--gpus", "1", "--", "echo second; exit 3");
        LocalJobsTest.waitUntil(() -> show(second).path("reason").asText().equals("slurm: Resources"), 20,
                () -> show(second).toString());
        waitState(first, "running", 20);
        JsonNode nodes = cli.json("queue", "nodes");
        JsonNode node = nodes.path("nodes").path(0);
        assertEquals("up", node.path("state").asText(), nodes.toString());
        assertEquals(2, node.path("gpus").size(), node.toString());

        Files.writeString(go, "");
        JsonNode done = waitEnd(first, 60);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals(0, done.path("exit_code").asInt());
        assertEquals("step 1/1", done.path("progress").asText());
        assertEquals("cluster", cli.json("job", "result", String.valueOf(first)).path("result").path("node").asText());
        assertEquals("gpus=0,1 node=cluster\n", cli.json("job", "logs", String.valueOf(first)).path("log").asText());

        JsonNode failed = waitEnd(second, 60);
        assertEquals("failed", failed.path("state").asText(), failed.toString());
        assertEquals(3, failed.path("exit_code").asInt());
        assertEquals("FAILED", slurm.state(slurmId(second)), "Slurm saw the exit code too");
    }

    @Test
    void timeoutCancelAndAnScancelFromOutside() throws Exception {
        config("", cluster(""));
        long overrun = submit("--node", "cluster", "--gpus", "1", "--timeout", "3", "--", "sleep 60");
        long cancelled = submit("--node", "cluster", "--gpus", "1", "--", "sleep 60");
        waitState(overrun, "running", 20);
        waitState(cancelled, "running", 20);
        JsonNode timedOut = waitEnd(overrun, 60);
        assertEquals("timeout", timedOut.path("state").asText(), timedOut.toString());
        String overrunId = slurmId(overrun);
        LocalJobsTest.waitUntil(() -> !slurm.state(overrunId).equals("RUNNING"), 20);

        cli.json("job", "cancel", String.valueOf(cancelled));
        String cancelledId = slurmId(cancelled);
        LocalJobsTest.waitUntil(() -> slurm.state(cancelledId).equals("CANCELLED"), 20);
        assertEquals("cancelled", show(cancelled).path("state").asText());

        long outside = submit("--node", "cluster", "--gpus", "1", "--", "sleep 60");
        waitState(outside, "running", 20);
        assertEquals(0, slurm.client("scancel", slurmId(outside)).exit());
        waitState(outside, "cancelled", 30);
        assertTrue(show(outside).path("last_error").asText().contains("cancelled in slurm by someone else"),
                show(outside).toString());
        // A job cancelled while Slurm still keeps it waiting leaves Slurm too.
        long first = submit("--node", "cluster", "--gpus", "2", "--", "sleep 60");
        long waiting = submit("--node", "cluster", "--gpus", "2", "--", "sleep 60");
        waitState(first, "running", 20);
        String waitingId = slurmId(waiting);
        assertEquals("PENDING", slurm.state(waitingId));
        cli.json("job", "cancel", String.valueOf(waiting));
        LocalJobsTest.waitUntil(() -> slurm.state(waitingId).equals("CANCELLED"), 20);
    }

    @Test
    void poolJobsBurstAfterTheWorkstationStaysFullWithinMaxJobs() throws Exception {
        FakeNvidiaSmi gpu = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/state"))
                .gpu(0, "NVIDIA GeForce RTX 4090", 24564);
        String box = "  - nickname: box\n    transport: local\n    nvidia_smi: " + gpu.command() + "\n    job_root: "
                + tmp.resolve("box-jobs") + "\n";
        config("  burst_after: 4\n  max_jobs_per_gpu: 1\n", box + cluster("    burst: true\n    max_jobs: 1\n"));
        long home = submit("--gpus", "1", "--vram", "20G", "--", until(tmp.resolve("never"))); // the box stays full
        assertEquals("box", show(home).path("node").asText());
        waitState(home, "running", 20);
        Path go = tmp.resolve("go");
        long over = submit("--gpus", "1", "--vram", "20G", "--", "echo burst on $NVIDB_NODE; " + until(go));
        assertTrue(show(over).path("node").isNull(), "not before burst_after: " + show(over));
        long capped = submit("--gpus", "1", "--vram", "20G", "--", "true");
        long kept = submit("--gpus", "1", "--vram", "20G", "--no-burst", "--", "true");
        Cli.Result tooBig = cli.run("job", "submit", "--json", "--gpus", "1", "--vram", "100G", "--", "true");
        assertEquals(1, tooBig.exit(), tooBig.toString());
        assertEquals("failed", tooBig.json().path("job").path("state").asText(), "fits neither box nor cluster's 80G");

        LocalJobsTest.waitUntil(() -> show(over).path("node").asText().equals("cluster"), 30, () -> show(over).toString());
        JsonNode burst = show(over);
        java.time.Instant created = java.time.Instant.parse(burst.path("created_at").asText());
        java.time.Instant handed = null;
        for (JsonNode e : burst.path("events")) {
            if (e.path("kind").asText().equals("job_batch_submitted")) {
                handed = java.time.Instant.parse(e.path("ts").asText());
            }
        }
        assertTrue(handed != null && !handed.isBefore(created.plusSeconds(4)), "burst after burst_after: " + burst);
        assertTrue(show(capped).path("node").isNull(), "max_jobs 1 is reached: " + show(capped));
        assertTrue(show(kept).path("node").isNull(), "--no-burst stays home: " + show(kept));
        Files.writeString(go, "");
        JsonNode done = waitEnd(over, 60);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals("burst on cluster\n", cli.json("job", "logs", String.valueOf(over)).path("log").asText());
        // The cluster has room again: the next waiting job goes, the --no-burst one never.
        LocalJobsTest.waitUntil(() -> show(capped).path("node").asText().equals("cluster"), 30,
                () -> show(capped).toString());
        assertTrue(show(kept).path("node").isNull(), show(kept).toString());
        cli.json("job", "cancel", String.valueOf(home), String.valueOf(kept));

        // Lanes are the workstations': a Slurm node has none.
        Cli.Result lane = cli.run("job", "submit", "--lane", "cluster:0", "--", "true");
        assertEquals(64, lane.exit(), lane.toString());
        assertTrue(lane.err().contains("places its jobs itself"), lane.toString());
    }

    @Test
    void aWorkstationJobWaitsForItsSlurmDependency() throws Exception {
        config("", "  - nickname: box\n    transport: local\n    job_root: " + tmp.resolve("box-jobs") + "\n"
                + cluster(""));
        Path marker = tmp.resolve("marker");
        long first = submit("--node", "cluster", "--gpus", "1", "--", "sleep 2; echo made > " + marker);
        long then = submit("--node", "box", "--gpus", "0", "--after", String.valueOf(first), "--", "cat " + marker);
        assertEquals("pending", show(then).path("state").asText());
        JsonNode done = waitEnd(then, 60);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals("completed", show(first).path("state").asText());
        assertEquals("made\n", cli.json("job", "logs", String.valueOf(then)).path("log").asText());
    }

    @Test
    void theLoginOverSshAndACancelOwedWhileItIsUnreachable() throws Exception {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        try (SshdFixture sshd = SshdFixture.launch()) {
            Files.writeString(tmp.resolve("known_hosts"), sshd.hostKeyLine() + "\n");
            config("", cluster("    login: ssh\n    hostname: 127.0.0.1\n    port: " + sshd.port() + "\n"
                    + "    username: " + sshd.user() + "\n    auth: key\n    identityfile: " + sshd.userKey() + "\n"
                    + "    known_hosts: " + tmp.resolve("known_hosts") + "\n    home: " + tmp.resolve("client-home")
                    + "\n    connect_timeout: 3\n"));
            long quick = submit("--node", "cluster", "--gpus", "1", "--", "echo over ssh");
            JsonNode done = waitEnd(quick, 60);
            assertEquals("completed", done.path("state").asText(), done.toString());
            assertEquals("over ssh\n", cli.json("job", "logs", String.valueOf(quick)).path("log").asText());

            long slow = submit("--node", "cluster", "--gpus", "1", "--", "sleep 60");
            waitState(slow, "running", 20);
            String sid = slurmId(slow);
            sshd.stop();
            cli.json("job", "cancel", String.valueOf(slow));
            assertEquals("cancelled", show(slow).path("state").asText());
            assertEquals("RUNNING", slurm.state(sid), "the login is unreachable: the scancel is owed");
            sshd.start();
            cli.json("queue", "tick");
            LocalJobsTest.waitUntil(() -> slurm.state(sid).equals("CANCELLED"), 20);
        }
    }

    @Test
    void aSlurmctldRestartDuringAPassLosesNothing() throws Exception {
        config("", cluster(""));
        long job = submit("--node", "cluster", "--gpus", "1", "--", "sleep 8; echo survived");
        waitState(job, "running", 20);
        slurm.stopController();
        try {
            JsonNode tick = cli.json("queue", "tick");
            JsonNode node = cli.json("queue", "nodes").path("nodes").path(0);
            assertEquals("down", node.path("state").asText(), tick.toString() + node);
            assertEquals("running", show(job).path("state").asText());
        } finally {
            slurm.startController();
        }
        cli.json("queue", "tick");
        assertEquals("up", cli.json("queue", "nodes").path("nodes").path(0).path("state").asText());
        JsonNode done = waitEnd(job, 60);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals("survived\n", cli.json("job", "logs", String.valueOf(job)).path("log").asText());
        assertNotEquals(Duration.ZERO, slurm.startTime());
    }
}
