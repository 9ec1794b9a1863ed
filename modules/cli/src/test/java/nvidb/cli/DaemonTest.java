package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb queue daemon} as real processes against one database on a local node: what wakes
 * it, that a change is left to it, that there is only one, and how it ends. The local node's
 * nvidia-smi is a stand-in that fails (a node without GPUs; {@code --gpus 0} jobs run), and that
 * hangs for a few seconds while {@code slow} exists, to hold a pass in progress.
 */
class DaemonTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path slow;
    Path probeStarted;
    DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        slow = tmp.resolve("slow");
        probeStarted = tmp.resolve("probe-started");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path smi = bin.resolve("nvidia-smi");
        Files.writeString(smi, "#!/bin/sh\nif [ -f '" + slow + "' ]; then touch '" + probeStarted + "'; sleep 3; fi\n"
                + "exit 9\n");
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
        cli = new Cli(tmp).env("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs") + "\n");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"));
    }

    @Test
    void aSecondDaemonIsRefusedNamingTheFirstsPidAndOnceStillMakesItsPass() throws Exception {
        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        Cli.Result second = Cli.finish(cli.start("queue", "daemon", "--json"), 60);
        assertEquals(4, second.exit(), second.toString());
        assertEquals("conflict", second.json().path("code").asText());
        assertTrue(second.json().path("error").asText().contains("pid " + daemon.pid()), second.toString());
        assertTrue(daemon.process.isAlive(), "the first one runs on");

        Cli.Result once = Cli.finish(cli.start("queue", "daemon", "--once", "--json"), 60);
        assertEquals(0, once.exit(), once.toString());
        assertTrue(once.json().path("tick").path("ran").asBoolean(), once.toString());
        assertEquals(daemon.pid(), status().path("daemon").path("pid").asLong(), "--once registered nothing");
        assertTrue(Files.readString(cli.nvidbHome().resolve("daemon.log")).contains("not started (pid "),
                "the refusal is in the log too");
    }

    @Test
    void whileADaemonRunsASubmitLeavesItsPassToTheDaemonWhichStartsTheJob() throws Exception {
        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        JsonNode submitted = cli.json("job", "submit", "--gpus", "0", "--", "sleep 30");
        long id = submitted.path("job").path("id").asLong();
        assertEquals("daemon", submitted.path("tick").path("skipped").asText(), submitted.toString());
        assertEquals("pending", submitted.path("job").path("state").asText());
        JsonNode pass = daemon.await(d -> d.path("tick").path("dispatched").findValues("id").stream()
                .anyMatch(v -> v.asLong() == id), Duration.ofSeconds(30), "pass dispatching job " + id);
        assertEquals("change", pass.path("woken_by").asText(), pass.toString());
        assertEquals("running", cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());

        JsonNode cancelled = cli.json("job", "cancel", String.valueOf(id));
        assertTrue(cancelled.path("results").path(0).path("cancelled").asBoolean(), cancelled.toString());
        JsonNode st = status();
        assertEquals(daemon.pid(), st.path("daemon").path("pid").asLong(), st.toString());
        assertFalse(st.path("daemon").path("last_pass_at").isNull(), st.toString());
    }

    @Test
    void sigtermFinishesThePassInProgressReleasesEverythingAndExitsZero() throws Exception {
        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        Files.writeString(slow, "");
        long id = cli.json("job", "submit", "--gpus", "0", "--", "sleep 30").path("job").path("id").asLong();
        await(() -> Files.exists(probeStarted), "the pass to start probing");
        assertTrue(leaseHeld(), "the pass holds the scheduler lease while it probes");

        assertEquals(0, daemon.signalAndWait("TERM", Duration.ofSeconds(60)), daemon.stderr());
        List<JsonNode> lines = daemon.lines();
        JsonNode last = lines.getLast();
        assertTrue(last.path("summary").asBoolean(), "the last line is the summary: " + lines);
        JsonNode pass = lines.get(lines.size() - 2);
        assertEquals(id, pass.path("tick").path("dispatched").path(0).path("id").asLong(),
                "the pass in progress was finished, not cut off: " + lines);
        assertFalse(leaseHeld(), "the scheduler lease was given back");
        Files.delete(slow);
        JsonNode st = status();
        assertTrue(st.path("daemon").isNull(), "the registration was given back: " + st);
        assertEquals("running", cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());
        assertTrue(Files.readString(cli.nvidbHome().resolve("daemon.log")).contains("stopped after"));
    }

    @Test
    void aDaemonKilledWithSigkillIsReplacedAtOnceAndCommandsPassThemselvesMeanwhile() throws Exception {
        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        daemon.process.destroyForcibly();
        daemon.process.waitFor();
        assertTrue(status().path("daemon").isNull(), "a registration whose process is gone does not count");
        JsonNode submitted = cli.json("job", "submit", "--gpus", "0", "--", "true");
        assertTrue(submitted.path("tick").path("ran").asBoolean(), "no daemon: the submit passes itself " + submitted);

        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        assertEquals(daemon.pid(), status().path("daemon").path("pid").asLong());
    }

    @Test
    void onceMakesOnePassPrintsItAndRegistersNothing() throws Exception {
        long id = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();
        Cli.Result once = Cli.finish(cli.start("queue", "daemon", "--once", "--json"), 60);
        assertEquals(0, once.exit(), once.toString());
        JsonNode doc = once.json();
        assertEquals("start", doc.path("woken_by").asText(), doc.toString());
        assertEquals(id, doc.path("tick").path("dispatched").path(0).path("id").asLong(), doc.toString());
        assertTrue(doc.path("duration_ms").asLong() >= 0);
        assertEquals(0, doc.path("notified").asInt(), doc.toString());
        assertTrue(doc.path("backup").isNull() && doc.path("backup_error").isNull(), "backups are off: " + doc);
        assertTrue(status().path("daemon").isNull());

        Cli.Result human = Cli.finish(cli.start("queue", "daemon", "--once"), 60);
        assertEquals(0, human.exit(), human.toString());
        assertTrue(human.out().startsWith("tick: nodes up=1"), human.toString());
    }

    @Test
    void withBackupsOnTheDaemonTakesThemAndARestoreIsRefusedWhileItServes() throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs")
                + "\n  backup:\n    enabled: true\n    interval_hours: 24\n    keep: 2\n");
        Path manual = Path.of(cli.json("queue", "backup").path("backup").path("path").asText());
        Files.writeString(cli.nvidbHome().resolve("queue.yml"), Files.readString(cli.nvidbHome().resolve("queue.yml"))
                .replace("interval_hours: 24", "interval_hours: 0.0001")); // due again within a second
        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        Path log = cli.nvidbHome().resolve("daemon.log");
        await(() -> {
            try {
                return Files.readString(log).contains("backup /");
            } catch (java.io.IOException e) {
                return false;
            }
        }, "a periodic backup in the daemon's log");
        String line = Files.readAllLines(log).stream().filter(l -> l.contains("backup /")).findFirst().orElseThrow();
        Path taken = Path.of(line.substring(line.indexOf("backup /") + 7, line.indexOf(" (")));
        assertTrue(Files.isRegularFile(taken) && !taken.equals(manual), line);
        assertFalse(status().path("last_backup_at").isNull());

        Cli.Result restore = cli.run("queue", "restore", manual.toString(), "--json");
        assertEquals(4, restore.exit(), restore.toString());
        assertTrue(restore.json().path("error").asText().contains("a queue daemon serves it (pid " + daemon.pid()),
                restore.toString());
    }

    /**
     * The reference's pass document: {@code notified} counts the alerts the pass delivered, and
     * {@code interval_hours: 0} (as the reference reads it) backs up after every pass, each backup
     * in its pass's document as {@code queue backup --json} shows it.
     */
    @Test
    void aPassReportsTheAlertsItDeliveredAndIntervalZeroBacksUpEveryPass() throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs")
                + "\n  notify:\n    desktop: false\n  backup:\n    enabled: true\n    interval_hours: 0\n    keep: 0\n");
        long id = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "exit 3").path("job").path("id").asLong();
        List<String> backups = new java.util.ArrayList<>();
        int notified = 0;
        for (int pass = 0; pass < 10 && notified == 0; pass++) {
            Cli.Result once = Cli.finish(cli.start("queue", "daemon", "--once", "--json"), 60);
            assertEquals(0, once.exit(), once.toString());
            JsonNode doc = once.json();
            JsonNode b = doc.path("backup");
            assertTrue(Files.isRegularFile(Path.of(b.path("path").asText())), doc.toString());
            assertTrue(b.path("verified").asBoolean() && b.path("pruned").isArray() && b.path("bytes").asLong() > 0,
                    doc.toString());
            assertTrue(doc.path("backup_error").isNull(), doc.toString());
            backups.add(b.path("path").asText());
            notified += doc.path("notified").asInt();
        }
        assertEquals(1, notified, "the failure's alert, delivered to the log sink by a pass");
        assertTrue(backups.size() >= 2 && backups.stream().distinct().count() == backups.size(),
                "a new backup every pass: " + backups);
        Cli.Result alerts = cli.run("queue", "alerts", "--no-tick", "--json");
        assertEquals(1, alerts.exit(), "open until acknowledged: " + alerts);
        JsonNode alert = alerts.json().path("alerts").path(0);
        assertEquals(id, alert.path("job_id").asLong(), alert.toString());
        assertTrue(alert.path("notified_at").isTextual(), alert.toString());

        Cli.Result without = Cli.finish(cli.start("queue", "daemon", "--once", "--json", "--no-backup", "--no-notify"), 60);
        assertEquals(0, without.exit(), without.toString());
        assertTrue(without.json().path("backup").isNull(), "--no-backup, as the reference takes it: " + without);
    }

    @Test
    void badIntervalsAreUsageErrors() {
        Cli.Result zero = cli.run("queue", "daemon", "--interval", "0");
        assertEquals(64, zero.exit(), zero.toString());
        assertTrue(zero.err().contains("--interval takes a number of seconds ≥ 1"), zero.err());
        assertEquals(64, cli.run("queue", "daemon", "--interval", "soon").exit());
    }

    private JsonNode status() {
        return cli.json("queue", "status", "--no-tick");
    }

    private boolean leaseHeld() {
        JsonNode lock = status().path("tick_lock");
        return !lock.isNull() && !lock.path("owner").isNull();
    }

    private void await(BooleanSupplier condition, String what) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(60);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what + "; daemon:\n" + daemon.lines() + "\n"
                        + daemon.stderr());
            }
            Thread.sleep(50);
        }
    }
}
