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
 * every check; a stopped sshd, a job_root that cannot be written, a typo in the configuration and
 * a stale backup each fail their own line, with what to do, and exit 1.
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
        }
        assertEquals(doc.path("ok").asBoolean() ? 0 : 1, r.exit(), r.toString());
        return new Report(r.exit(), doc, checks);
    }

    private void failsWith(Report report, String name, String detailPart) {
        assertEquals(1, report.exit(), report.doc().toString());
        JsonNode c = report.check(name);
        assertFalse(c.path("ok").asBoolean(), c.toString());
        assertTrue(c.path("detail").asText().contains(detailPart), c.toString());
        assertFalse(c.path("fix").asText().isBlank(), "a failed check says what to do: " + c);
    }

    @Test
    void healthyQueuePassesThenAStoppedSshdFailsItsNode() throws Exception {
        assumeTrue(SshdFixture.available(), "openssh-server is not installed (CI installs it)");
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
    void aStaleBackupFailsItsLine() throws Exception {
        config(tmp.resolve("local-jobs").toString(), false);
        Report none = doctor();
        failsWith(none, "backup", "no backup of this queue was taken yet");
        assertEquals("nvidb queue backup; queue.backup.enabled: true in queue.yml has the daemon take one every"
                + " interval_hours", none.check("backup").path("fix").asText());

        cli.json("queue", "backup");
        assertTrue(doctor().check("backup").path("ok").asBoolean());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement s = c.prepareStatement("UPDATE meta SET value = ? WHERE key = 'last_backup_at'")) {
            s.setString(1, Instant.now().minus(Duration.ofDays(9)).toString());
            assertEquals(1, s.executeUpdate());
        }
        failsWith(doctor(), "backup", "9 d ago: older than 7 d");
    }

    @Test
    void aClientOfAQueueHostChecksThatTheHostAnswersWithACompatibleNvidb() throws Exception {
        assumeTrue(SshdFixture.available(), "openssh-server is not installed (CI installs it)");
        try (QueueHostFixture f = new QueueHostFixture(tmp)) {
            daemon = DaemonProcess.start(f.host, "--interval", "30");
            daemon.awaitFirstPass();
            cli = f.client;
            Report healthy = doctor();
            assertEquals(List.of("configuration", "queue host"), List.copyOf(healthy.checks().keySet()));
            assertEquals(0, healthy.exit(), healthy.doc().toString());
            assertTrue(healthy.check("configuration").path("detail").asText().contains("(remote:)"), healthy.doc().toString());

            f.remote(tmp.resolve("nowhere/nvidb").toString(), "off");
            failsWith(doctor(), "queue host", "nvidb was not found on the queue host");
        }
    }
}
