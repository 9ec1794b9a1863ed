package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight {@code queue tick} processes of the built image at once, over two local nodes with four
 * fake GPUs each: one pass runs, the other seven answer "locked" while it is still going instead
 * of waiting for it, and no job is started twice. The pass is held inside its probe by a gate in
 * front of nvidia-smi until the other seven have answered, so "while it is still going" is an
 * order of events the test sees, not a timing.
 */
class ConcurrentTicksIT {
    static final int NODES = 2;
    static final int GPUS = 4;
    static final int TICKS = 8;

    @TempDir
    Path tmp;
    Path nvidb;
    Path gate;
    Path probing;
    Path marks;
    final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void setUp() throws IOException {
        nvidb = Client.image();
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.createDirectories(tmp.resolve("io"));
        gate = tmp.resolve("gate-closed");
        probing = tmp.resolve("probing");
        marks = tmp.resolve("starts");
        // Timeouts far above any wait here: the held pass must neither time out its probe nor lose its lease.
        StringBuilder y = new StringBuilder("queue:\n  include_local: false\n  tick_min_interval: 0\n"
                + "  probe_timeout: 300\n  lock_ttl: 900\nservers:\n");
        for (int n = 0; n < NODES; n++) {
            FakeNvidiaSmi smi = FakeNvidiaSmi.install("n" + n, tmp.resolve("n" + n + "/bin"), tmp.resolve("n" + n + "/smi"));
            for (int g = 0; g < GPUS; g++) {
                smi.gpu(g, "NVIDIA A100-SXM4-80GB", 81920);
            }
            Path gated = tmp.resolve("n" + n + "/gated-nvidia-smi");
            Files.writeString(gated, "#!/bin/sh\n: > '" + probing + "'\nwhile [ -f '" + gate + "' ]; do sleep 0.05; done\n"
                    + "exec '" + smi.command() + "' \"$@\"\n");
            gated.toFile().setExecutable(true);
            y.append("  - nickname: n").append(n).append("\n    transport: local\n    nvidia_smi: ").append(gated)
                    .append("\n    job_root: ").append(tmp.resolve("n" + n + "/jobs")).append('\n');
        }
        Files.writeString(home.resolve("queue.yml"), y.toString());
        env.put("NVIDB_HOME", home.toString());
    }

    @Test
    void eightTicksAtOnceMakeOnePassAndStartEachJobOnce() throws Exception {
        // More jobs than cards (one 60 GB job per 80 GB card): later passes start the rest as the first end.
        int jobs = 2 * NODES * GPUS;
        for (int i = 0; i < jobs; i++) {
            JsonNode r = run(List.of("job", "submit", "--json", "--no-tick", "--gpus", "1", "--vram", "60G",
                    "--name", "j" + i, "--", "echo \"$NVIDB_JOB_ID $NVIDB_JOB_DIR\" >> '" + marks + "'; sleep 1"));
            assertTrue(r.path("ok").asBoolean(), r.toString());
        }

        Files.writeString(gate, "");
        List<Client> ticks = new ArrayList<>();
        for (int i = 0; i < TICKS; i++) {
            ticks.add(Client.start(nvidb, env, tmp.resolve("io"), "tick", null, -1, List.of("queue", "tick", "--json")));
        }
        // Seven answer while the eighth is held in its probe; only then does the gate open.
        List<Client> answered = new ArrayList<>();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(300);
        while (answered.size() < TICKS - 1) {
            assertTrue(System.nanoTime() < deadline, "seven ticks did not answer: " + ticks);
            for (Client c : ticks) {
                if (!c.process().isAlive() && !answered.contains(c)) {
                    answered.add(c);
                }
            }
            Thread.sleep(50);
        }
        Client pass = ticks.stream().filter(c -> !answered.contains(c)).findFirst().orElseThrow();
        assertTrue(pass.process().isAlive(), "the pass still runs while the others answer");
        assertTrue(Files.exists(probing), "the pass is inside its probe");
        for (Client c : answered) {
            assertEquals(0, c.finish(10), c + "\n" + c.stderr());
            JsonNode t = c.document();
            assertEquals("locked", t.path("skipped").asText(), c + ": " + t);
            assertTrue(!t.path("ran").asBoolean() && t.path("dispatched").isEmpty(), t.toString());
        }
        Files.delete(gate);
        assertEquals(0, pass.finish(300), pass.stderr());
        JsonNode first = pass.document();
        assertTrue(first.path("ran").asBoolean(), first.toString());
        assertEquals(NODES * GPUS, first.path("dispatched").size(), first.toString());

        // Then rounds of eight at once, ungated, until every job has run: whichever pass runs, no job starts twice.
        for (int round = 0; round < 20 && !allFinished(jobs); round++) {
            List<Client> burst = new ArrayList<>();
            for (int i = 0; i < TICKS; i++) {
                burst.add(Client.start(nvidb, env, tmp.resolve("io"), "tick", null, -1, List.of("queue", "tick", "--json")));
            }
            for (Client c : burst) {
                assertEquals(0, c.finish(300), c + "\n" + c.stderr());
                JsonNode t = c.document();
                assertTrue(t.path("ran").asBoolean() || t.path("skipped").asText().equals("locked"), t.toString());
            }
            Thread.sleep(1000);
        }
        assertTrue(allFinished(jobs), "every job ran to the end");

        Map<String, Integer> startsByJob = new TreeMap<>();
        for (String line : Files.readAllLines(marks)) {
            startsByJob.merge(line.split(" ")[0], 1, Integer::sum);
        }
        assertEquals(jobs, startsByJob.size(), "every job started: " + startsByJob);
        startsByJob.forEach((id, starts) -> assertEquals(1, starts, "job " + id + " started " + starts + " times"));
        for (JsonNode j : run(List.of("job", "ls", "--json", "--no-tick", "-n", "0")).path("jobs")) {
            assertEquals("completed", j.path("state").asText(), j.toString());
            assertEquals(1, j.path("attempt").asInt(), j.toString());
        }
    }

    private boolean allFinished(int jobs) throws Exception {
        JsonNode counts = run(List.of("queue", "status", "--json", "--no-tick")).path("counts");
        return counts.path("completed").asInt() == jobs;
    }

    private JsonNode run(List<String> args) {
        Client c = Client.start(nvidb, env, tmp.resolve("io"), "cmd", null, -1, args);
        assertEquals(0, c.finish(120), c + "\n" + c.stdout() + c.stderr());
        return c.document();
    }
}
