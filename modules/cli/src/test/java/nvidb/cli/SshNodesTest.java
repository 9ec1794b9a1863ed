package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.testkit.BlackHole;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes reached over SSH: real OpenSSH sshd processes on loopback ports, each with its own
 * fake nvidia-smi and job root, driven through the real command line and the ssh transport.
 */
class SshNodesTest {
    @TempDir
    Path tmp;
    Cli cli;
    final Map<String, SshdFixture> sshd = new LinkedHashMap<>();
    final Map<String, FakeNvidiaSmi> gpus = new LinkedHashMap<>();
    final Map<String, String> extra = new LinkedHashMap<>();
    final List<AutoCloseable> closers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        cli = new Cli(tmp);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (SshdFixture f : sshd.values()) {
            f.close();
        }
        for (AutoCloseable c : closers) {
            c.close();
        }
    }

    private SshdFixture node(String name, long gpuMib) {
        SshdFixture f = SshdFixture.launch();
        sshd.put(name, f);
        gpus.put(name, FakeNvidiaSmi.install(name, tmp.resolve(name + "/bin"), tmp.resolve(name + "/state"))
                .gpu(0, "NVIDIA GeForce RTX 4090", gpuMib));
        return f;
    }

    private Path knownHosts(String... names) throws Exception {
        Path kh = tmp.resolve("known_hosts");
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append(sshd.get(n).hostKeyLine()).append('\n');
        }
        Files.writeString(kh, sb.toString());
        return kh;
    }

    private void config(String queueExtra) throws Exception {
        StringBuilder y = new StringBuilder("queue:\n  tick_min_interval: 0.5\n  probe_timeout: 5\n  launch_timeout: 10\n")
                .append(queueExtra).append("servers:\n");
        for (Map.Entry<String, SshdFixture> e : sshd.entrySet()) {
            String n = e.getKey();
            SshdFixture f = e.getValue();
            y.append("  - nickname: ").append(n).append('\n')
                    .append("    hostname: 127.0.0.1\n")
                    .append("    port: ").append(f.port()).append('\n')
                    .append("    username: ").append(f.user()).append('\n')
                    .append("    auth: key\n")
                    .append(extra.getOrDefault(n, "").contains("identityfile:") ? ""
                            : "    identityfile: " + f.userKey() + "\n")
                    .append("    known_hosts: ").append(tmp.resolve("known_hosts")).append('\n')
                    .append("    home: ").append(tmp.resolve("client-home")).append('\n')
                    .append("    connect_timeout: 3\n")
                    .append("    nvidia_smi: ").append(gpus.get(n).command()).append('\n')
                    .append("    job_root: ").append(tmp.resolve(n + "-jobs")).append('\n')
                    .append(extra.getOrDefault(n, ""));
        }
        cli.write(".nvidb/queue.yml", y.toString());
    }

    private JsonNode nodeJson(String name) {
        for (JsonNode n : cli.json("queue", "nodes", "--tick").path("nodes")) {
            if (n.path("name").asText().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name);
    }

    private static void waitUntil(LocalJobsTest.Check check, int seconds) throws Exception {
        LocalJobsTest.waitUntil(check, seconds);
    }

    @Test
    void threeNodesJobsLandWhereCapacityIsAndReportBack() throws Exception {
        node("s1", 24564);
        node("s2", 24564);
        node("s3", 24564);
        knownHosts("s1", "s2", "s3");
        config("");
        gpus.get("s1").foreignProcess(777001, 0, 20000, "theirs");
        gpus.get("s2").foreignProcess(777002, 0, 20000, "theirs");
        String script = "echo 'epoch 1/1' > \"$NVIDB_STATUS_FILE\"; echo \"{\\\"node\\\": \\\"$NVIDB_NODE\\\"}\" > "
                + "\"$NVIDB_JOB_DIR/result.json\"; echo out-$NVIDB_NODE; sleep 1";
        JsonNode job = cli.json("job", "submit", "--vram", "8G", "--", script).path("job");
        assertEquals("s3", job.path("node").asText(), "only s3 has 8G free: " + job);
        Cli.Result wait = cli.run("job", "wait", job.path("id").asText(), "--timeout", "60", "--json");
        assertEquals(0, wait.exit(), wait.toString());
        JsonNode done = wait.json().path("jobs").path(0);
        assertEquals("epoch 1/1", done.path("progress").asText());
        assertEquals("s3", cli.json("job", "result", job.path("id").asText()).path("result").path("node").asText());
        assertEquals("out-s3\n", cli.json("job", "logs", job.path("id").asText()).path("log").asText());
        for (String n : List.of("s1", "s2", "s3")) {
            JsonNode node = nodeJson(n);
            assertEquals("up", node.path("state").asText());
            assertEquals(1, node.path("gpus").size());
            assertEquals(n.equals("s3") ? 0 : 20000, node.path("gpus").path(0).path("external_mem_mb").asInt());
        }
    }

    @Test
    void aNodeThatGoesAwayKeepsItsJobAndSettlesItWhenItComesBack() throws Exception {
        SshdFixture s1 = node("s1", 24564);
        knownHosts("s1");
        config("");
        JsonNode job = cli.json("job", "submit", "--gpus", "0", "--", "sleep 4; exit 7").path("job");
        assertEquals("running", job.path("state").asText(), job.toString());
        s1.stop();
        JsonNode tick = cli.json("queue", "tick");
        assertEquals(1, tick.path("nodes_down").asInt(), tick.toString());
        JsonNode down = cli.json("job", "show", job.path("id").asText());
        assertEquals("running", down.path("state").asText(), "a job is never lost for unreachability");
        JsonNode alert = cli.run("queue", "alerts", "--json").json().path("alerts").path(0);
        assertEquals("node_down", alert.path("kind").asText());
        assertTrue(alert.path("title").asText().contains("1 running job(s) cannot be checked"), alert.toString());
        cli.json("queue", "tick");
        assertEquals(1, cli.run("queue", "alerts", "--json").json().path("open").asInt(), "one alert per outage");
        Thread.sleep(5000); // the job ends while its node is unreachable
        s1.start();
        cli.json("queue", "tick");
        JsonNode back = cli.json("job", "show", job.path("id").asText());
        assertEquals("failed", back.path("state").asText(), back.toString());
        assertEquals(7, back.path("exit_code").asInt());
        Instant started = Instant.parse(back.path("started_at").asText());
        Instant finished = Instant.parse(back.path("finished_at").asText());
        long took = Duration.between(started, finished).getSeconds();
        assertTrue(took >= 3 && took <= 6, "end time from the node's own record, not when we saw it: " + took + " s");
        Set<String> kinds = new HashSet<>();
        cli.json("queue", "events", "-n", "1000").path("events").forEach(e -> kinds.add(e.path("kind").asText()));
        assertTrue(kinds.containsAll(List.of("node_down", "node_up", "job_finished")), kinds.toString());
    }

    @Test
    void aCancelWhileTheNodeIsDownIsCarriedOutWhenItReturns() throws Exception {
        SshdFixture s1 = node("s1", 24564);
        knownHosts("s1");
        config("");
        Path pidFile = tmp.resolve("pid");
        JsonNode job = cli.json("job", "submit", "--gpus", "0", "--", "echo $$ > " + pidFile + "; sleep 120").path("job");
        waitUntil(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), 15);
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        s1.stop();
        cli.json("queue", "tick");
        assertTrue(cli.json("job", "cancel", job.path("id").asText()).path("results").path(0).path("cancelled").asBoolean());
        assertEquals(1, cli.json("queue", "status", "--no-tick").path("pending_reaps").asInt());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "still running while unreachable");
        s1.start();
        cli.json("queue", "tick");
        waitUntil(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), 15);
        assertEquals(0, cli.json("queue", "status", "--no-tick").path("pending_reaps").asInt());
    }

    @Test
    void hostKeysUnknownRefusedAcceptNewRecordedChangedRefused() throws Exception {
        SshdFixture s1 = node("s1", 24564);
        Files.writeString(tmp.resolve("known_hosts"), "");
        config("");
        JsonNode refused = nodeJson("s1");
        assertEquals("down", refused.path("state").asText());
        assertTrue(refused.path("last_error").asText().contains("SHA256:"), refused.toString());

        extra.put("s1", "    host_key_check: accept-new\n");
        config("");
        assertEquals("up", nodeJson("s1").path("state").asText());
        assertTrue(Files.readString(tmp.resolve("known_hosts")).contains(String.valueOf(s1.port())));

        s1.stop();
        s1.newHostKey();
        s1.start();
        JsonNode changed = nodeJson("s1");
        assertEquals("down", changed.path("state").asText());
        assertTrue(changed.path("last_error").asText().toLowerCase().contains("changed"), changed.toString());
    }

    @Test
    void aWrongKeyFailsThatNodeWhileTheOthersWork() throws Exception {
        node("good", 24564);
        node("bad", 24564);
        knownHosts("good", "bad");
        Path wrong = SshdFixture.keygen(tmp.resolve("wrong_key"));
        extra.put("bad", "    identityfile: " + wrong + "\n");
        config("");
        JsonNode bad = nodeJson("bad");
        assertEquals("down", bad.path("state").asText());
        assertTrue(bad.path("last_error").asText().contains("authentication"), bad.toString());
        JsonNode job = cli.json("job", "submit", "--gpus", "0", "--", "true").path("job");
        assertEquals("good", job.path("node").asText(), job.toString());
    }

    @Test
    void proxyJumpReachesANodeThroughAnother() throws Exception {
        SshdFixture jump = SshdFixture.launch();
        closers.add(jump);
        node("inner", 24564);
        Files.writeString(tmp.resolve("known_hosts"), jump.hostKeyLine() + "\n" + sshd.get("inner").hostKeyLine() + "\n");
        Path clientHome = tmp.resolve("client-home/.ssh");
        Files.createDirectories(clientHome);
        Files.writeString(clientHome.resolve("config"), "Host jumphost\n  HostName 127.0.0.1\n  Port " + jump.port()
                + "\n  User " + jump.user() + "\n  IdentityFile " + jump.userKey() + "\n");
        extra.put("inner", "    proxyjump: jumphost\n");
        config("");
        long before = jump.acceptedLogins();
        JsonNode job = cli.json("job", "submit", "--gpus", "0", "--", "echo through").path("job");
        assertEquals("inner", job.path("node").asText(), job.toString());
        assertEquals(0, cli.run("job", "wait", job.path("id").asText(), "--timeout", "30").exit());
        assertTrue(jump.acceptedLogins() > before, "the connection went through the jump host");
    }

    @Test
    void aNodeThatNeverAnswersCostsOneTimeoutAndTheOthersStillGetWork() throws Exception {
        node("good", 24564);
        knownHosts("good");
        BlackHole hole = BlackHole.open();
        closers.add(hole);
        config("");
        String y = Files.readString(cli.nvidbHome().resolve("queue.yml"));
        y += "  - nickname: silent\n    hostname: 127.0.0.1\n    port: " + hole.port() + "\n    username: nobody\n"
                + "    known_hosts: " + tmp.resolve("known_hosts") + "\n    home: " + tmp.resolve("client-home") + "\n"
                + "    connect_timeout: 3\n";
        cli.write(".nvidb/queue.yml", y);
        cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        long t0 = System.nanoTime();
        JsonNode tick = cli.json("queue", "tick");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(1, tick.path("dispatched").size(), tick.toString());
        assertEquals("good", tick.path("dispatched").path(0).path("node").asText());
        assertEquals(1, tick.path("nodes_down").asInt());
        assertTrue(ms < 9000, "one timeout (3 s connect), not one per step: " + ms + " ms");
        assertNotNull(tick.path("errors").path(0).path("error").asText());
        assertFalse(nodeJson("silent").path("last_error").asText().isEmpty());
    }
}
