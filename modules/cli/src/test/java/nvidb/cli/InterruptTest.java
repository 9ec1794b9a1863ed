package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (SIGINT) and SIGTERM sent to a real {@code nvidb} JVM: a pass in progress gives its lease
 * back before the process ends, and an interrupted wait still says which job it was waiting for.
 */
class InterruptTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path probeStarted;

    @BeforeEach
    void setUp() throws Exception {
        // The local node's probe calls this nvidia-smi while it exists: it hangs, keeping the pass (and its lease) busy.
        probeStarted = tmp.resolve("probe-started");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path smi = bin.resolve("nvidia-smi");
        Files.writeString(smi, "#!/bin/sh\ntouch '" + probeStarted + "'\nexec sleep 60\n");
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
        cli = new Cli(tmp).env("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs") + "\n");
    }

    @Test
    void ctrlCDuringAPassReleasesTheLeaseAndTheNextPassRuns() throws Exception {
        interruptedPassLeavesNoLease("INT", 130);
    }

    @Test
    void sigtermDuringAPassReleasesTheLeaseToo() throws Exception {
        interruptedPassLeavesNoLease("TERM", 143);
    }

    private void interruptedPassLeavesNoLease(String signal, int expectedExit) throws Exception {
        Process tick = cli.start("queue", "tick", "--json");
        await(() -> Files.exists(probeStarted), tick);
        assertTrue(leaseOwner() != null, "the pass holds the lease while it probes");
        Instant sent = Instant.now();
        signal(tick, signal);
        Cli.Result r = Cli.finish(tick, 30);
        assertEquals(expectedExit, r.exit(), r.toString());
        assertTrue(Duration.between(sent, Instant.now()).toSeconds() < 10, "ended promptly: " + r);
        assertNull(leaseOwner(), "the lease was given back before the process ended");

        Files.delete(tmp.resolve("bin/nvidia-smi"));
        JsonNode next = cli.json("queue", "tick");
        assertFalse(next.path("tick").has("skipped") && !next.path("tick").path("skipped").isNull(), next.toString());
        JsonNode nodes = cli.json("queue", "nodes", "--no-tick");
        assertEquals("up", nodes.path("nodes").path(0).path("state").asText(),
                "the interrupted probe did not mark the node down: " + nodes);
    }

    @Test
    void ctrlCOnSubmitWaitPrintsTheJobItCreated() throws Exception {
        Files.delete(tmp.resolve("bin/nvidia-smi"));
        Process submit = cli.start("job", "submit", "--gpus", "0", "--wait", "--json", "--", "sleep 60");
        // The job runs once the submit's own pass placed it, and that pass is over once it gave the
        // lease back: the submit is then in its wait (a Ctrl-C inside its own pass is another case).
        await(() -> cli.json("job", "ls", "--no-tick").path("jobs").path(0).path("state").asText().equals("running")
                && leaseFree(), submit);
        signal(submit, "INT");
        Cli.Result r = Cli.finish(submit, 30);
        assertEquals(130, r.exit(), r.toString());
        JsonNode doc = r.json();
        assertTrue(doc.path("interrupted").asBoolean(), r.toString());
        long id = doc.path("job").path("id").asLong();
        assertTrue(id > 0, r.toString());
        assertEquals("running", doc.path("job").path("state").asText(), "the job keeps going: " + r);

        Process wait = cli.start("job", "wait", String.valueOf(id), "--json");
        await(() -> holdsTheQueueOpen(wait), wait);
        signal(wait, "INT");
        Cli.Result w = Cli.finish(wait, 30);
        assertEquals(130, w.exit(), w.toString());
        assertTrue(w.json().path("interrupted").asBoolean(), w.toString());
        assertEquals(id, w.json().path("jobs").path(0).path("id").asLong(), w.toString());

        Process human = cli.start("job", "wait", String.valueOf(id));
        await(() -> holdsTheQueueOpen(human), human);
        signal(human, "TERM");
        Cli.Result h = Cli.finish(human, 30);
        assertEquals(143, h.exit(), h.toString());
        assertTrue(h.err().contains("waiting interrupted") && h.err().contains("job(s) " + id + " keep going"), h.toString());
        assertEquals("running", cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());
        cli.json("job", "cancel", String.valueOf(id));
    }

    /**
     * Whether {@code p} has the queue's database open: its start-up (the signal handling every
     * command installs first) is behind it and it reads the job it waits for.
     */
    private boolean holdsTheQueueOpen(Process p) {
        try (var fds = Files.list(java.nio.file.Path.of("/proc", String.valueOf(p.pid()), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(cli.database().toRealPath());
                } catch (java.io.IOException e) {
                    return false; // closed meanwhile
                }
            });
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void signal(Process p, String signal) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor());
    }

    private static void await(BooleanSupplier ok, Process p) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (!ok.getAsBoolean()) {
            if (!p.isAlive()) {
                throw new AssertionError("the command ended early: " + Cli.finish(p, 1));
            }
            assertTrue(Instant.now().isBefore(deadline), "timed out");
            Thread.sleep(100);
        }
    }

    private boolean leaseFree() {
        try {
            return leaseOwner() == null;
        } catch (Exception e) {
            return false; // the database was busy: look again
        }
    }

    private String leaseOwner() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT owner FROM locks WHERE name = 'scheduler'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
