package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb doctor} against real things: a local node and a node behind a real sshd on
 * loopback, each with a fake nvidia-smi; a real daemon; real backups. A healthy queue passes
 * every check; a fresh one (no daemon, no backup) passes with two warnings, and a stale backup
 * warns; a stopped sshd, a job_root that cannot be written, a typo in the configuration and a
 * keeper that is installed but down each fail their own line, with what to do, and exit 1.
 */
class DoctorTest {
    @TempDir
    Path tmp;
    Cli cli;
    SshdFixture sshd;
    DaemonProcess daemon;
    final List<FakeNvidiaSmi> gpus = new ArrayList<>();

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp);
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        if (sshd != null) {
            sshd.close();
        }
    }

    /** A local node (job_root as given) with one fake GPU, and, with an sshd, node s1 behind it. */
    private void config(String localJobRoot, boolean withSsh) throws Exception {
        FakeNvidiaSmi local = FakeNvidiaSmi.install("local", tmp.resolve("local/bin"), tmp.resolve("local/state"))
                .gpu(0, "NVIDIA GeForce RTX 4090", 24564);
        StringBuilder y = new StringBuilder("queue:\n  probe_timeout: 30\nservers:\n")
                .append("  - nickname: local\n    transport: local\n")
                .append("    nvidia_smi: ").append(local.command()).append('\n')
                .append("    job_root: ").append(localJobRoot).append('\n');
        if (withSsh) {
            sshd = SshdFixture.launch();
            FakeNvidiaSmi remote = FakeNvidiaSmi.install("s1", tmp.resolve("s1/bin"), tmp.resolve("s1/state"))
                    .gpu(0, "NVIDIA A100", 40960).gpu(1, "NVIDIA A100", 40960);
            Files.writeString(tmp.resolve("known_hosts"), sshd.hostKeyLine() + "\n");
            y.append("  - nickname: s1\n    hostname: 127.0.0.1\n")
                    .append("    port: ").append(sshd.port()).append('\n')
                    .append("    username: ").append(sshd.user()).append('\n')
                    .append("    auth: key\n    identityfile: ").append(sshd.userKey()).append('\n')
                    .append("    known_hosts: ").append(tmp.resolve("known_hosts")).append('\n')
                    .append("    home: ").append(tmp.resolve("client-home")).append('\n')
                    .append("    connect_timeout: 3\n")
                    .append("    nvidia_smi: ").append(remote.command()).append('\n')
                    .append("    job_root: ").append(tmp.resolve("s1-jobs")).append('\n');
        }
        cli.write(".nvidb/config.yml", y.toString());
    }

    /** nvidb doctor --json: its exit code and its checks by name. */
    private record Report(int exit, JsonNode doc, Map<String, JsonNode> checks) {
        JsonNode check(String name) {
            JsonNode c = checks.get(name);
            if (c == null) {
                throw new AssertionError("no check " + name + " in " + doc);
            }
            return c;
        }
    }

    private Report doctor() {
        Cli.Result r = cli.run("doctor", "--json");
        JsonNode doc = r.json();
        Map<String, JsonNode> checks = new LinkedHashMap<>();
        for (JsonNode c : doc.path("checks")) {
            checks.put(c.path("name").asText(), c);
            assertTrue(c.has("detail") && c.has("fix") && c.has("ok"), c.toString());
            assertTrue(List.of("ok", "warn", "fail").contains(c.path("level").asText()), c.toString());
            assertEquals(!c.path("level").asText().equals("fail"), c.path("ok").asBoolean(), c.toString());
        }
        assertEquals(doc.path("ok").asBoolean() ? 0 : 1, r.exit(), r.toString());
        return new Report(r.exit(), doc, checks);
    }

    private void failsWith(Report report, String name, String detailPart) {
        assertEquals(1, report.exit(), report.doc().toString());
        JsonNode c = report.check(name);
        assertFalse(c.path("ok").asBoolean(), c.toString());
        assertEquals("fail", c.path("level").asText(), c.toString());
        assertTrue(c.path("detail").asText().contains(detailPart), c.toString());
        assertFalse(c.path("fix").asText().isBlank(), "a failed check says what to do: " + c);
    }

    /** A warning: the check is ok (advice), says what to do, and on its own leaves the exit 0. */
    private static void warns(Report report, String name, String detailPart) {
        JsonNode c = report.check(name);
        assertEquals("warn", c.path("level").asText(), c.toString());
        assertTrue(c.path("ok").asBoolean(), c.toString());
        assertTrue(c.path("detail").asText().contains(detailPart), c.toString());
        assertFalse(c.path("fix").asText().isBlank(), "a warning says what to do: " + c);
    }

    @Test
    void healthyQueuePassesThenAStoppedSshdFailsItsNode() throws Exception {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        config(tmp.resolve("local-jobs").toString(), true);
        cli.json("queue", "backup");
        daemon = DaemonProcess.start(cli, "--interval", "30");
        daemon.awaitFirstPass();

        Report healthy = doctor();
        assertEquals(0, healthy.exit(), healthy.doc().toPrettyString());
        assertEquals(List.of("configuration", "database", "free space", "node local", "node local gpus",
                "node local job_root", "node local clock", "node s1", "node s1 gpus", "node s1 job_root",
                "node s1 clock", "daemon", "backup"), List.copyOf(healthy.checks().keySet()));
        assertTrue(healthy.check("node s1 gpus").path("detail").asText().startsWith("2 GPU(s)"), healthy.doc().toString());
        assertTrue(healthy.check("daemon").path("detail").asText().contains("pid " + daemon.pid()),
                healthy.doc().toString());
        healthy.checks().values().forEach(c -> assertEquals("ok", c.path("level").asText(), c.toString()));
        Cli.Result text = cli.run("doctor");
        assertEquals(0, text.exit(), text.toString());
        assertEquals(13, text.out().lines().filter(l -> l.startsWith("✔ ")).count(), text.out());

        sshd.stop();
        Report down = doctor();
        failsWith(down, "node s1", "does not answer over ssh");
        assertFalse(down.checks().containsKey("node s1 clock"), "nothing more is said of a node that does not answer");
        assertTrue(down.check("node local").path("ok").asBoolean(), down.doc().toString());
        Cli.Result line = cli.run("doctor");
        assertEquals(1, line.exit());
        assertTrue(line.out().lines().anyMatch(l -> l.startsWith("✘ node s1: does not answer")), line.out());
        assertTrue(line.out().contains("    fix: check that the node is up"), line.out());
    }

    @Test
    void aJobRootThatCannotBeWrittenFailsItsLine() throws Exception {
        // A path under a regular file: not writable for anyone, root included (the CI runs as root).
        Files.writeString(tmp.resolve("a-file"), "not a folder\n");
        String root = tmp.resolve("a-file/jobs").toString();
        config(root, false);
        Report report = doctor();
        failsWith(report, "node local job_root", root + " is not writable");
        assertTrue(report.check("node local").path("ok").asBoolean(), report.doc().toString());
        assertTrue(report.check("node local gpus").path("detail").asText().startsWith("1 GPU(s)"), report.doc().toString());
    }

    @Test
    void aTypoInTheConfigurationFailsFirstAndNamesTheKey() throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_intervall: 3\n");
        Report report = doctor();
        failsWith(report, "configuration", "tick_min_intervall");
        assertEquals(List.of("configuration"), List.copyOf(report.checks().keySet()),
                "nothing is checked with a configuration that does not parse");
    }

    @Test
    void aFreshInstallPassesWithTwoWarningsAStaleBackupWarnsAndAKeeperThatIsDownFails() throws Exception {
        config(tmp.resolve("local-jobs").toString(), false);
        Report fresh = doctor();
        assertEquals(0, fresh.exit(), fresh.doc().toPrettyString());
        assertTrue(fresh.doc().path("ok").asBoolean(), fresh.doc().toString());
        warns(fresh, "daemon", "nothing keeps the queue moving: no queue daemon and no keeper");
        assertEquals("nvidb queue keeper install --start", fresh.check("daemon").path("fix").asText());
        warns(fresh, "backup", "no backup of this queue was taken yet");
        assertEquals("nvidb queue backup; queue.backup.enabled: true in queue.yml has the daemon take one every"
                + " interval_hours", fresh.check("backup").path("fix").asText());
        assertEquals(List.of("daemon", "backup"), fresh.checks().values().stream()
                .filter(c -> !c.path("level").asText().equals("ok")).map(c -> c.path("name").asText()).toList());
        Cli.Result text = cli.run("doctor");
        assertEquals(0, text.exit(), text.toString());
        List<String> lines = text.out().lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("! daemon: nothing keeps the queue moving")), text.out());
        assertTrue(lines.contains("    fix: nvidb queue keeper install --start"), text.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("! backup: no backup")), text.out());
        assertEquals(7, lines.stream().filter(l -> l.startsWith("✔ ")).count(), text.out());
        assertEquals(0, lines.stream().filter(l -> l.startsWith("✘ ")).count(), text.out());

        cli.json("queue", "backup");
        assertEquals("ok", doctor().check("backup").path("level").asText());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement s = c.prepareStatement("UPDATE meta SET value = ? WHERE key = 'last_backup_at'")) {
            s.setString(1, Instant.now().minus(Duration.ofDays(9)).toString());
            assertEquals(1, s.executeUpdate());
        }
        Report stale = doctor();
        warns(stale, "backup", "9 d ago: older than 7 d");
        assertEquals(0, stale.exit(), stale.doc().toString());

        // A keeper set up to keep a daemon running that does not: what was set up is broken.
        cli.json("queue", "keeper", "install", "--nvidb", "/bin/true");
        Report down = doctor();
        failsWith(down, "daemon", "the shell keeper is down");
        assertEquals("nvidb queue keeper ensure", down.check("daemon").path("fix").asText());
        assertFalse(down.doc().path("ok").asBoolean(), down.doc().toString());
        Cli.Result failed = cli.run("doctor");
        assertEquals(1, failed.exit(), failed.toString());
        assertTrue(failed.out().lines().anyMatch(l -> l.startsWith("✘ daemon: ")), failed.out());
    }

    @Test
    void aClientOfAQueueHostChecksThatTheHostAnswersWithACompatibleNvidb() throws Exception {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        try (QueueHostFixture f = new QueueHostFixture(tmp)) {
            cli = f.client;
            Report idle = doctor(); // the host answers, but nothing keeps its queue moving: advice
            warns(idle, "queue host", "nothing keeps its queue moving");
            assertEquals(0, idle.exit(), idle.doc().toString());
            daemon = DaemonProcess.start(f.host, "--interval", "30");
            daemon.awaitFirstPass();
            Report healthy = doctor();
            assertEquals(List.of("configuration", "queue host"), List.copyOf(healthy.checks().keySet()));
            assertEquals(0, healthy.exit(), healthy.doc().toString());
            assertTrue(healthy.check("configuration").path("detail").asText().contains("(remote:)"), healthy.doc().toString());

            f.remote(tmp.resolve("nowhere/nvidb").toString(), "off");
            failsWith(doctor(), "queue host", "nvidb was not found on the queue host");
        }
    }
}
