package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built image's daemon and keeper keeping a queue moving with nobody typing: a lane's next job
 * starts right after the previous one ends, and a killed daemon is started again. Every command
 * runs {@code bin/nvidb}; the one node is this machine (local transport) with a fake 24 GiB GPU.
 */
class DaemonIT {
    @TempDir
    Path tmp;
    Path nvidb;
    Path home;
    Path times;
    Client daemon;

    @BeforeEach
    void setUp() throws IOException {
        nvidb = Client.image();
        home = Files.createDirectories(tmp.resolve("home"));
        times = tmp.resolve("times.log");
        Files.writeString(times, "");
        FakeNvidiaSmi smi = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/smi"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564);
        Files.writeString(home.resolve("queue.yml"), "queue:\n  lane_spool_root: " + tmp.resolve("spool")
                + "\n  lane_idle_exit: 30\nservers:\n  - nickname: box\n    transport: local\n    nvidia_smi: "
                + smi.command() + "\n    job_root: " + tmp.resolve("jobs") + "\n");
    }

    @AfterEach
    void tearDown() throws Exception {
        run("queue", "keeper", "stop");
        if (daemon != null) {
            daemon.kill();
        }
        for (Path dir : List.of(tmp.resolve("spool"), tmp.resolve("jobs"))) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.filter(f -> f.getFileName().toString().matches("(runner\\.)?pid")).toList()) {
                    try {
                        ProcessHandle.of(Long.parseLong(Files.readString(p).strip())).ifPresent(ProcessHandle::destroyForcibly);
                    } catch (NumberFormatException | IOException e) {
                        // not written in full: nothing to stop
                    }
                }
            }
        }
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("NVIDB_HOME", home.toString());
        return env;
    }

    private Client start(String kind, String... args) {
        return Client.start(nvidb, env(), tmp, kind, null, -1, List.of(args));
    }

    private JsonNode run(String... args) {
        Client c = start("cmd", args);
        c.finish(120);
        return c.document();
    }

    @Test
    void withTheDaemonALanesNextJobStartsWithinASecondOfThePreviousOnesExit() throws Exception {
        daemon = start("daemon", "queue", "daemon", "--json"); // the default interval, 15 s
        awaitDaemon(pid -> pid == daemon.process().pid());
        long a = laneJob(3);
        long b = laneJob(0.5);
        // No client command from here on: the daemon and the lane runner alone.
        Instant deadline = Instant.now().plusSeconds(90);
        Map<String, Double> t = stamps();
        while (!t.containsKey(b + " end")) {
            assertTrue(Instant.now().isBefore(deadline), "job " + b + " did not run: " + Files.readString(times)
                    + "\ndaemon:\n" + daemon.stdout() + daemon.stderr());
            Thread.sleep(100);
            t = stamps();
        }
        double idle = t.get(b + " start") - t.get(a + " end");
        assertTrue(idle >= 0 && idle < 1.0, "the card sat idle " + idle + " s between job " + a + " and job " + b
                + ":\n" + Files.readString(times) + "\ndaemon:\n" + daemon.stdout());

        new ProcessBuilder("kill", "-TERM", String.valueOf(daemon.process().pid())).start().waitFor();
        assertEquals(0, daemon.finish(120), daemon.stderr());
        String out = daemon.stdout().strip();
        assertTrue(out.substring(out.lastIndexOf('\n') + 1).contains("\"summary\":true"), out);
    }

    @Test
    void theKeeperOfTheImageBringsBackAKilledDaemon() throws Exception {
        JsonNode installed = run("queue", "keeper", "install", "--start", "--json");
        assertTrue(installed.path("ok").asBoolean(), String.valueOf(installed));
        assertTrue(installed.path("runs").asText().startsWith(nvidb.toRealPath() + " ")
                || installed.path("runs").asText().startsWith(nvidb + " "), "it runs this image: " + installed);
        long first = awaitDaemon(pid -> true);
        // The launcher gives a server JVM its own heap settings (a plain command keeps the defaults).
        List<String> flags = List.of(Files.readString(Path.of("/proc", String.valueOf(first), "cmdline")).split("\0"));
        assertTrue(flags.contains("-Xmx512m") && flags.contains("-Xmn64m"), "the daemon's JVM: " + flags);
        ProcessHandle.of(first).orElseThrow().destroyForcibly();
        long second = awaitDaemon(pid -> pid != first);
        assertNotEquals(first, second);
        JsonNode removed = run("queue", "keeper", "uninstall", "--json");
        assertTrue(removed.path("ok").asBoolean(), String.valueOf(removed));
        try (Stream<Path> files = Files.list(home)) {
            assertEquals(List.of(), files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("queue-keeper")).toList());
        }
    }

    private long laneJob(double seconds) {
        JsonNode submitted = run("job", "submit", "--json", "--lane", "box:0", "--vram", "1G", "--",
                "echo \"$NVIDB_JOB_ID start $(date +%s.%N)\" >> " + times + "; sleep " + seconds
                        + "; echo \"$NVIDB_JOB_ID end $(date +%s.%N)\" >> " + times);
        assertEquals("daemon", submitted.path("tick").path("skipped").asText(), String.valueOf(submitted));
        return submitted.path("job").path("id").asLong();
    }

    /** "ID start" / "ID end" → epoch seconds, as the jobs wrote them. */
    private Map<String, Double> stamps() throws IOException {
        Map<String, Double> out = new HashMap<>();
        for (String line : Files.readAllLines(times)) {
            String[] f = line.split(" ");
            if (f.length == 3) {
                out.put(f[0] + " " + f[1], Double.parseDouble(f[2]));
            }
        }
        return out;
    }

    private long awaitDaemon(LongPredicate wanted) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(90);
        while (Instant.now().isBefore(deadline)) {
            JsonNode d = run("queue", "status", "--json", "--no-tick").path("daemon");
            if (d.isObject() && wanted.test(d.path("pid").asLong())) {
                return d.path("pid").asLong();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no daemon registered");
    }
}
