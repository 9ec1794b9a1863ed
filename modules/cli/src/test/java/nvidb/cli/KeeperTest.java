package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb queue keeper} with real processes: the sh supervisor it writes runs {@code nvidb}
 * (a wrapper that starts this test's class path as a JVM), starts a killed daemon again, and
 * stops and goes away when told. The systemd kind is driven against a stand-in {@code systemctl}
 * that records what it is asked (a test machine has no user systemd), its unit checked by
 * {@code systemd-analyze verify} where that runs.
 */
class KeeperTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path nvidb;
    Path bin;

    @BeforeEach
    void setUp() throws Exception {
        bin = Files.createDirectories(tmp.resolve("bin"));
        Files.writeString(bin.resolve("nvidia-smi"), "#!/bin/sh\nexit 9\n");
        Files.setPosixFilePermissions(bin.resolve("nvidia-smi"), PosixFilePermissions.fromString("rwxr-xr-x"));
        cli = new Cli(tmp).env("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"))
                .env("XDG_CONFIG_HOME", tmp.resolve("config").toString());
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs") + "\n");
        nvidb = tmp.resolve("the nvidb");
        Files.writeString(nvidb, "#!/bin/sh\nexec " + String.join(" ", cli.javaCommand().stream().map(Cli::q).toList())
                + " \"$@\"\n");
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void tearDown() {
        cli.run("queue", "keeper", "stop"); // a failing test must not leave a supervisor behind
    }

    @Test
    void theKeeperBringsBackAKilledDaemonStopsWhenToldAndUninstallLeavesNoFile() throws Exception {
        assertEquals(1, cli.run("queue", "keeper", "status").exit(), "nothing keeps the queue moving yet");
        JsonNode installed = cli.json("queue", "keeper", "install", "--start", "--nvidb", nvidb.toString(),
                "--interval", "5");
        assertTrue(installed.path("ok").asBoolean(), installed.toString());
        assertEquals("shell", installed.path("keeper").path("kind").asText());
        assertTrue(installed.path("keeper").path("up").asBoolean(), installed.toString());
        long keeperPid = installed.path("keeper").path("pid").asLong();
        Path script = cli.nvidbHome().resolve("queue-keeper.sh");
        assertTrue(Files.isExecutable(script));
        assertTrue(installed.path("runs").asText().contains("queue daemon --interval 5"), installed.toString());

        long first = awaitDaemon(pid -> true);
        long parent = ProcessHandle.of(first).orElseThrow().parent().map(ProcessHandle::pid).orElse(-1L);
        assertEquals(keeperPid, parent, "the supervisor runs the daemon " + first);
        ProcessHandle.of(first).orElseThrow().destroyForcibly(); // SIGKILL
        long second = awaitDaemon(pid -> pid != first);
        assertNotEquals(first, second);

        JsonNode status = cli.json("queue", "status", "--no-tick");
        assertEquals("shell", status.path("keeper").path("kind").asText(), status.toString());
        assertTrue(status.path("keeper").path("installed").asBoolean());
        assertTrue(status.path("keeper").path("up").asBoolean());
        assertEquals(keeperPid, status.path("keeper").path("pid").asLong(), "the same supervisor restarted it");
        assertEquals(second, status.path("daemon").path("pid").asLong());
        assertEquals(keeperPid, cli.json("queue", "keeper", "ensure").path("keeper").path("pid").asLong(),
                "ensure leaves a running keeper alone");
        JsonNode logLines = cli.json("queue", "keeper", "logs", "-n", "20").path("lines");
        assertTrue(logLines.toString().contains("supervisor started"), logLines.toString());
        assertTrue(logLines.toString().contains("daemon ended with status 137"), logLines.toString());

        JsonNode stopped = cli.json("queue", "keeper", "stop");
        assertFalse(stopped.path("keeper").path("up").asBoolean(), stopped.toString());
        assertTrue(gone(second), "its daemon stopped too");
        assertTrue(gone(keeperPid));
        assertEquals(1, cli.run("queue", "keeper", "status").exit(), "stopped: nothing keeps the queue moving");

        JsonNode ensured = cli.json("queue", "keeper", "ensure");
        assertTrue(ensured.path("keeper").path("up").asBoolean(), ensured.toString());
        long third = awaitDaemon(pid -> pid != second);
        long again = ensured.path("keeper").path("pid").asLong();

        JsonNode removed = cli.json("queue", "keeper", "uninstall");
        assertTrue(removed.path("removed").toString().contains("queue-keeper.sh"), removed.toString());
        assertFalse(removed.path("keeper").path("installed").asBoolean());
        assertEquals(List.of(), keeperFiles(), "every file the keeper wrote is gone");
        assertTrue(gone(again));
        assertTrue(gone(third));
        Cli.Result after = cli.run("queue", "keeper", "status", "--json");
        assertEquals(1, after.exit(), after.toString());
        assertFalse(after.json().path("keeper").path("installed").asBoolean());
    }

    @Test
    void theSystemdKindWritesAUnitAndDrivesSystemctl() throws Exception {
        Path calls = tmp.resolve("systemctl.calls");
        Path active = tmp.resolve("systemctl.active");
        Path systemctl = bin.resolve("systemctl");
        Files.writeString(systemctl, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\ncase \"$*\" in\n"
                + "  *is-active*) if [ -f '" + active + "' ]; then echo active; exit 0; fi; echo inactive; exit 3 ;;\n"
                + "  *MainPID*) echo 4242 ;;\n"
                + "  *'enable --now'*) touch '" + active + "' ;;\n"
                + "  *'disable --now'*) rm -f '" + active + "' ;;\n"
                + "esac\nexit 0\n");
        Files.setPosixFilePermissions(systemctl, PosixFilePermissions.fromString("rwxr-xr-x"));

        JsonNode installed = cli.json("queue", "keeper", "install", "--systemd", "--start", "--nvidb", nvidb.toString());
        assertTrue(installed.path("ok").asBoolean(), installed.toString());
        Path unit = tmp.resolve("config/systemd/user/nvidb-queue.service");
        String text = Files.readString(unit);
        assertTrue(text.contains("ExecStart=\"" + nvidb + "\" --db-path \"" + cli.database() + "\" queue daemon --interval 15"),
                text);
        assertTrue(text.contains("Environment=\"NVIDB_HOME=" + cli.nvidbHome() + "\""), text);
        assertEquals(List.of("--user daemon-reload", "--user enable --now nvidb-queue.service"),
                Files.readAllLines(calls).stream().filter(l -> !l.contains("is-active") && !l.contains("MainPID")).toList());
        JsonNode status = cli.json("queue", "keeper", "status");
        assertEquals("systemd", status.path("keeper").path("kind").asText(), status.toString());
        assertEquals(4242, status.path("keeper").path("pid").asLong());
        assertEquals(unit.toString(), status.path("keeper").path("unit").asText());

        // Switching to the shell kind takes the unit away first (disabled, removed, systemd reloaded).
        Files.writeString(calls, "");
        JsonNode shell = cli.json("queue", "keeper", "install", "--nvidb", nvidb.toString());
        assertTrue(shell.path("replaced").asBoolean(), shell.toString());
        assertFalse(Files.exists(unit));
        List<String> asked = Files.readAllLines(calls);
        assertTrue(asked.contains("--user disable --now nvidb-queue.service") && asked.contains("--user daemon-reload"),
                asked.toString());
        JsonNode gone = cli.json("queue", "keeper", "uninstall");
        assertTrue(gone.path("removed").toString().contains("queue-keeper.sh"), gone.toString());
        assertEquals(List.of(), keeperFiles());
    }

    @Test
    void withoutSystemctlTheSystemdKindIsRefusedAndNothingIsWritten() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty-bin"));
        Cli bare = new Cli(tmp).env("PATH", empty.toString()).env("XDG_CONFIG_HOME", tmp.resolve("config").toString());
        Cli.Result r = bare.run("queue", "keeper", "install", "--systemd", "--nvidb", nvidb.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("systemctl is not available here: install the shell keeper instead"), r.err());
        assertFalse(Files.exists(tmp.resolve("config")));
        assertEquals(List.of(), keeperFiles());
    }

    @Test
    void badInputIsRefusedWithWhatWouldBeRight() {
        Cli.Result missing = cli.run("queue", "keeper", "install", "--nvidb", tmp.resolve("nope").toString());
        assertEquals(64, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("is not an executable file; pass --nvidb"), missing.err());
        Cli.Result interval = cli.run("queue", "keeper", "install", "--nvidb", nvidb.toString(), "--interval", "0");
        assertEquals(64, interval.exit(), interval.toString());
        Cli.Result lines = cli.run("queue", "keeper", "logs", "-n", "0");
        assertEquals(64, lines.exit(), lines.toString());
        Cli.Result ensure = cli.run("queue", "keeper", "ensure");
        assertEquals(3, ensure.exit(), ensure.toString());
        assertTrue(ensure.err().contains("nvidb queue keeper install --start"), ensure.err());
        assertEquals(3, cli.run("queue", "keeper", "uninstall").exit());
        assertEquals(64, cli.run("queue", "keeper", "sideways").exit());
    }

    /** Waits until a daemon whose pid passes {@code wanted} is registered; returns its pid. */
    private long awaitDaemon(LongPredicate wanted) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(90);
        while (Instant.now().isBefore(deadline)) {
            JsonNode d = cli.run("queue", "keeper", "status", "--json").json().path("daemon");
            if (!d.isNull() && wanted.test(d.path("pid").asLong())) {
                return d.path("pid").asLong();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no daemon registered; keeper log:\n" + cli.run("queue", "keeper", "logs").out());
    }

    /**
     * The process has ended. A detached supervisor's parent is init, which in some containers
     * never reaps: an ended one may linger as a zombie, which Java still calls alive.
     */
    static boolean gone(long pid) {
        return ProcessHandle.of(pid).map(p -> {
            if (!p.isAlive()) {
                return true;
            }
            try {
                String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
                return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
            } catch (IOException e) {
                return true;
            }
        }).orElse(true);
    }

    private List<String> keeperFiles() throws IOException {
        try (Stream<Path> files = Files.list(cli.nvidbHome())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("queue-keeper")).sorted().toList();
        }
    }
}
