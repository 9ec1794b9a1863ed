package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.Pids;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lane runner living on a node, driven through the real command line: jobs run for real,
 * started by the generated runner script; only the GPUs are a fake nvidia-smi. Each job writes
 * its own start and end time (the node's clock, which is this machine's) to a log, so the tests
 * can tell when the runner started it and whether a scheduler pass happened in between. The
 * same scenarios run on a local node and on a node reached over SSH (the subclasses).
 */
abstract class LaneRunnerScenarios {
    static final String LANE = "box:0";
    static final String LANE1 = "box:1";

    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi box;
    Path log;
    /** The scheduler passes this test ran: [start, end] in epoch seconds. */
    final List<double[]> passes = new ArrayList<>();

    /** The {@code servers:} entry of node {@code box} (after {@code - nickname: box}). */
    abstract String serverKeys() throws Exception;

    /** Starts what the node needs (an sshd), before the configuration is written. */
    void startNode() throws Exception {
    }

    void stopNode() throws Exception {
    }

    @BeforeEach
    void setUp() throws Exception {
        startNode();
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:runner");
        box = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        log = tmp.resolve("times.log");
        Files.writeString(log, "");
        config(20);
    }

    void config(int idleExit) throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  headroom_mb: 512\n  probe_timeout: 10\n"
                + "  launch_timeout: 20\n  lane_poll_interval: 1\n  lane_idle_exit: " + idleExit + "\n  lane_spool_root: "
                + tmp.resolve("spool") + "\nservers:\n  - nickname: box\n" + serverKeys() + "    nvidia_smi: "
                + box.command() + "\n    job_root: " + tmp.resolve("jobs") + "\n");
    }

    @AfterEach
    void tearDown() throws Exception {
        stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"));
        stopNode();
    }

    /** Runners and jobs live on after a command by design; a test's must not outlive the test. */
    static void stopRunnersAndJobs(Path spool, Path... jobRoots) throws IOException {
        if (Files.isDirectory(spool)) {
            try (Stream<Path> dirs = Files.list(spool)) {
                for (Path d : dirs.toList()) {
                    Pids.inFile(d.resolve("runner.pid")).flatMap(ProcessHandle::of).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
        List<ProcessHandle> jobs = new ArrayList<>();
        for (Path root : jobRoots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path d : dirs.toList()) {
                    Pids.inFile(d.resolve("pid")).flatMap(ProcessHandle::of).ifPresent(jobs::add);
                }
            }
        }
        try {
            Pids.killTreesAndAwait(jobs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- helpers

    /** A lane job that logs its start, sleeps, and logs its end (1 GiB unless {@code extra} says). */
    long laneJob(String lane, double seconds, String... extra) {
        return laneJobDoing(lane, "sleep " + seconds, extra);
    }

    /**
     * A lane job that runs until {@code gate} exists: a scenario that acts while it runs does not
     * depend on how fast this machine is (a fixed sleep ran out under CI's load).
     */
    long laneJobUntil(String lane, Path gate) {
        return laneJobDoing(lane, "while [ ! -e " + gate + " ]; do sleep 0.1; done");
    }

    private long laneJobDoing(String lane, String work, String... extra) {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--lane", lane, "--no-tick"));
        args.addAll(List.of(extra));
        if (!args.contains("--vram")) {
            args.addAll(List.of("--vram", "1G"));
        }
        args.add("--");
        args.add("echo \"$NVIDB_JOB_ID start $(date +%s.%N) gpu=$CUDA_VISIBLE_DEVICES\" >> " + log + "; " + work
                + "; echo \"$NVIDB_JOB_ID end $(date +%s.%N)\" >> " + log);
        return cli.json(args.toArray(String[]::new)).path("job").path("id").asLong();
    }

    /** One forced scheduler pass, remembered with its start and end time. */
    JsonNode pass() {
        double start = now();
        JsonNode tick = cli.json("queue", "tick");
        passes.add(new double[] {start, now()});
        return tick;
    }

    static double now() {
        return System.currentTimeMillis() / 1000.0;
    }

    /** What each job logged: id → "start"/"end" → epoch seconds. */
    Map<Long, Map<String, Double>> times() throws IOException {
        Map<Long, Map<String, Double>> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(log)) {
            String[] f = line.split(" ");
            if (f.length >= 3) {
                out.computeIfAbsent(Long.parseLong(f[0]), k -> new LinkedHashMap<>()).put(f[1], Double.parseDouble(f[2]));
            }
        }
        return out;
    }

    /** Job ids in the order they logged their start. */
    List<Long> startOrder() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains(" start ")).map(l -> Long.parseLong(l.split(" ")[0]))
                .toList();
    }

    boolean started(long id) throws IOException {
        return times().getOrDefault(id, Map.of()).containsKey("start");
    }

    boolean ended(long id) throws IOException {
        return times().getOrDefault(id, Map.of()).containsKey("end");
    }

    /**
     * Two jobs in lane box:0, the first started by the runner, the second staged with it (a pass
     * ran while the first was running).
     */
    long[] oneRunningOneStaged(double first, double second) throws Exception {
        long a = laneJob(LANE, first);
        long b = laneJob(LANE, second);
        pass();
        waitUntil(() -> started(a), 30);
        pass();
        return new long[] {a, b};
    }

    JsonNode job(long id) {
        return cli.json("job", "show", String.valueOf(id), "--no-tick");
    }

    JsonNode runner(String lane) {
        Cli.Result r = cli.run("queue", "lane", lane, "runner", "--json", "--no-tick");
        assertTrue(r.exit() == 0 || r.exit() == 1, r.toString());
        return r.json();
    }

    /** Waits for the jobs to end, with passes (as any client would make) to record it. */
    void settle(long... ids) throws Exception {
        List<String> args = new ArrayList<>(List.of("job", "wait", "--timeout", "60"));
        for (long id : ids) {
            args.add(String.valueOf(id));
        }
        Cli.Result r = cli.run(args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.toString());
    }

    static void waitUntil(LocalJobsTest.Check check, int seconds) throws Exception {
        LocalJobsTest.waitUntil(check, seconds);
    }

    // ---------------------------------------------------------------- scenarios

    @Test
    void threeJobsRunInOrderEachStartingWithinTwoSecondsOfThePreviousExitWithoutAPass() throws Exception {
        // Four seconds each: room for a pass while a job runs, even on a slow machine.
        long[] ids = {laneJob(LANE, 4), laneJob(LANE, 4), laneJob(LANE, 4)};
        pass(); // stages the first job; the runner starts it
        for (long id : ids) {
            waitUntil(() -> started(id), 30);
            pass(); // while it runs: records it as running and stages the next one
        }
        waitUntil(() -> ended(ids[2]), 30);
        Map<Long, Map<String, Double>> t = times();
        assertEquals(List.of(ids[0], ids[1], ids[2]), startOrder(), "strictly in lane order");
        for (int k = 1; k < 3; k++) {
            double end = t.get(ids[k - 1]).get("end");
            double start = t.get(ids[k]).get("start");
            assertTrue(start >= end, "job " + ids[k] + " started before job " + ids[k - 1] + " ended: " + t);
            assertTrue(start - end < 2.0, "job " + ids[k] + " started " + (start - end) + " s after the previous exit");
            for (double[] p : passes) {
                assertFalse(p[0] < start && p[1] > end,
                        "a scheduler pass ran between job " + ids[k - 1] + "'s exit and job " + ids[k] + "'s start");
            }
        }
        settle(ids);
        for (long id : ids) {
            JsonNode j = job(id);
            assertEquals("completed", j.path("state").asText(), j.toString());
            assertEquals("box", j.path("node").asText());
            assertEquals(List.of(0), List.of(j.path("gpu_ids").path(0).asInt()));
            assertEquals(1, j.path("attempt").asInt(), j.toString());
        }
        JsonNode events = cli.json("queue", "events", "--job", String.valueOf(ids[1])).path("events");
        assertTrue(events.toString().contains("(lane box:0)"), events.toString());
        assertTrue(events.toString().contains("\"runner\":true"), events.toString());
    }

    @Test
    void reorderingWhileJobsWaitChangesWhatRunsNext() throws Exception {
        Path gate = log.resolveSibling("a-may-end");
        long a = laneJobUntil(LANE, gate);
        long b = laneJob(LANE, 0.3);
        long c = laneJob(LANE, 0.3);
        long d = laneJob(LANE, 0.3);
        pass();
        waitUntil(() -> started(a), 30);
        pass(); // a runs; b is staged with the runner
        assertEquals(List.of(b), ids(runner(LANE).path("staged")), runner(LANE).toString());
        Cli.Result refused = cli.run("queue", "lane", LANE, "move", String.valueOf(a), "--to", "tail");
        assertEquals(4, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("job " + a + " is running; a running job cannot be moved"), refused.err());

        cli.json("queue", "lane", LANE, "move", String.valueOf(d), "--to", "head"); // d b c
        cli.json("queue", "lane", LANE, "swap", String.valueOf(b), String.valueOf(c)); // d c b
        cli.json("queue", "lane", LANE, "skip"); // c b d
        cli.json("queue", "lane", LANE1, "pause");
        long e = laneJob(LANE1, 0.3);
        cli.json("queue", "lane", LANE, "assign", String.valueOf(e), "--at", "2"); // c e b d
        assertEquals(List.of(c), ids(runner(LANE).path("staged")), "the runner holds the new head only");
        Files.createFile(gate);
        settle(a, b, c, d, e);
        assertEquals(List.of(a, c, e, b, d), startOrder());
        for (long id : List.of(a, b, c, d, e)) {
            assertEquals("completed", job(id).path("state").asText());
        }
    }

    @Test
    void pauseLetsTheRunningJobFinishAndStartsNothingMoreUntilResumed() throws Exception {
        long[] ab = oneRunningOneStaged(6, 0.3);
        long a = ab[0];
        long b = ab[1];
        JsonNode paused = cli.json("queue", "lane", LANE, "pause");
        assertTrue(paused.path("lane").path("paused").asBoolean(), paused.toString());
        assertTrue(paused.path("lane").path("runner_up").asBoolean(), "its runner still runs job a: " + paused);
        assertEquals(List.of(), ids(runner(LANE).path("staged")), "pause takes the staged job back");
        waitUntil(() -> ended(a), 30);
        Thread.sleep(2500); // more than the runner needs to start a staged job
        assertFalse(started(b), "a paused lane starts nothing more");
        pass();
        assertEquals("completed", job(a).path("state").asText(), "the running job was left to finish");
        assertEquals("pending", job(b).path("state").asText());
        assertEquals("paused", cli.json("queue", "lane", LANE, "--no-tick").path("blocked").asText());
        cli.json("queue", "lane", LANE, "resume");
        settle(b);
        assertEquals(List.of(a, b), startOrder());
    }

    @Test
    void cancellingAQueuedLaneJobLetsTheNextOneStart() throws Exception {
        long[] ab = oneRunningOneStaged(6, 0.3);
        long a = ab[0];
        long b = ab[1];
        long c = laneJob(LANE, 0.3);
        assertEquals(List.of(b), ids(runner(LANE).path("staged")));
        cli.json("job", "cancel", String.valueOf(b));
        assertEquals(List.of(c), ids(runner(LANE).path("staged")), "the cancel handed the runner the next job");
        waitUntil(() -> started(c), 30);
        Map<Long, Map<String, Double>> t = times();
        assertTrue(t.get(c).get("start") - t.get(a).get("end") < 2.0, t.toString());
        settle(a, c);
        assertEquals(List.of(a, c), startOrder(), "the cancelled job never ran");
        assertEquals("cancelled", job(b).path("state").asText());
    }

    @Test
    void aHeldHeadBlocksTheLaneUntilSkipped() throws Exception {
        long dep = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();
        cli.json("job", "cancel", String.valueOf(dep));
        long held = laneJob(LANE, 0.3, "--after", String.valueOf(dep));
        long next = laneJob(LANE, 0.3);
        pass();
        JsonNode lane = cli.json("queue", "lane", LANE, "--no-tick");
        assertTrue(lane.path("blocked").asText().startsWith("job " + held + " is held: "), lane.toString());
        Thread.sleep(1500);
        pass();
        assertFalse(started(next), "nothing steps over a held head");
        cli.json("queue", "lane", LANE, "skip");
        settle(next);
        assertEquals(List.of(next), startOrder());
        assertEquals("pending", job(held).path("state").asText());
        assertEquals(List.of(held), ids(cli.json("queue", "lane", LANE, "--no-tick").path("queued"), "id"));
    }

    @Test
    void aRunnerKilledWithKill9IsReplacedAndTheNewOneAdoptsItsJob() throws Exception {
        long[] ab = oneRunningOneStaged(8, 0.3);
        long a = ab[0];
        long b = ab[1];
        JsonNode before = runner(LANE);
        assertTrue(before.path("up").asBoolean(), before.toString());
        assertEquals(List.of(a), ids(before.path("running")), before.toString());
        long runnerPid = before.path("pid").asLong();
        long jobPid = job(a).path("remote_pid").asLong();
        new ProcessBuilder("kill", "-9", String.valueOf(runnerPid)).start().waitFor();
        waitUntil(() -> ProcessHandle.of(runnerPid).map(p -> !p.isAlive()).orElse(true), 10);
        assertTrue(ProcessHandle.of(jobPid).map(ProcessHandle::isAlive).orElse(false), "the job outlives its runner");

        pass(); // a new runner, which adopts the running job
        JsonNode after = runner(LANE);
        assertTrue(after.path("up").asBoolean(), after.toString());
        assertNotEquals(runnerPid, after.path("pid").asLong());
        assertEquals(List.of(a), ids(after.path("running")), "the new runner adopted job " + a + ": " + after);
        assertEquals(List.of(b), ids(after.path("staged")), after.toString());
        waitUntil(() -> started(b), 30);
        Map<Long, Map<String, Double>> t = times();
        assertTrue(t.get(b).get("start") - t.get(a).get("end") < 2.0, "the adopted job's exit starts the next: " + t);
        settle(a, b);
        assertEquals(List.of(a, b), startOrder());
        assertEquals("completed", job(a).path("state").asText());
        assertEquals("completed", job(b).path("state").asText());
    }

    @Test
    void aCardFullOfForeignMemoryHoldsTheLaneUntilTheMemoryGoes() throws Exception {
        box.foreignProcess(424242, 0, 20000, "someone-elses-training");
        long big = cli.json("job", "submit", "--lane", LANE, "--vram", "8G", "--no-tick", "--",
                "echo \"$NVIDB_JOB_ID start $(date +%s.%N)\" >> " + log).path("job").path("id").asLong();
        pass();
        JsonNode lane = cli.json("queue", "lane", LANE, "--no-tick");
        assertTrue(lane.path("blocked").asText().startsWith("card full: 20000 MiB of box GPU 0"), lane.toString());
        waitUntil(() -> runner(LANE).path("waiting").isTextual(), 10);
        JsonNode r = runner(LANE);
        assertTrue(r.path("waiting").asText().contains("job " + big + " needs 8192 MiB"), r.toString());
        assertEquals(List.of(big), ids(r.path("staged")));
        Thread.sleep(1500);
        assertFalse(started(big), "the runner waits rather than start on a full card");
        double freed = now();
        box.clearForeign();
        waitUntil(() -> started(big), 10); // the runner sees the memory go: no pass needed
        for (double[] p : passes) {
            assertTrue(p[1] < freed, "no scheduler pass ran after the memory went");
        }
        settle(big);
        assertEquals("completed", job(big).path("state").asText());
    }

    @Test
    void twoLanesOnTwoGpusOfOneNodeRunSideBySide() throws Exception {
        long a = laneJob(LANE, 5);
        long b = laneJob(LANE1, 5);
        pass();
        waitUntil(() -> started(a) && started(b), 30);
        Map<Long, Map<String, Double>> t = times();
        assertTrue(Math.abs(t.get(a).get("start") - t.get(b).get("start")) < 2.5, t.toString());
        assertFalse(ended(a) || ended(b), "both run at once");
        String text = Files.readString(log);
        assertTrue(text.contains(a + " start") && text.contains("gpu=0"), text);
        assertTrue(text.contains(b + " start") && text.contains("gpu=1"), text);
        settle(a, b);
        assertEquals(List.of(0), List.of(job(a).path("gpu_ids").path(0).asInt()));
        assertEquals(List.of(1), List.of(job(b).path("gpu_ids").path(0).asInt()));
    }

    @Test
    void theRunnerStopsAnOverrunningJobAndRestartsNeverTouchTheJob() throws Exception {
        long slow = cli.json("job", "submit", "--lane", LANE, "--timeout", "10", "--no-tick", "--",
                "echo \"$NVIDB_JOB_ID start $(date +%s.%N)\" >> " + log + "; sleep 60").path("job").path("id").asLong();
        pass();
        waitUntil(() -> started(slow), 30);
        pass();
        long jobPid = job(slow).path("remote_pid").asLong();
        long first = runner(LANE).path("pid").asLong();
        JsonNode soft = cli.json("queue", "lane", LANE, "runner", "restart");
        assertTrue(soft.path("stopped").asBoolean(), soft.toString());
        long second = runner(LANE).path("pid").asLong();
        assertNotEquals(first, second, "a new runner took over");
        JsonNode hard = cli.json("queue", "lane", LANE, "runner", "restart", "--hard");
        assertTrue(hard.path("hard").asBoolean(), hard.toString());
        JsonNode third = runner(LANE);
        assertNotEquals(second, third.path("pid").asLong());
        assertEquals(List.of(slow), ids(third.path("running")), third.toString());
        assertTrue(ProcessHandle.of(jobPid).map(ProcessHandle::isAlive).orElse(false), "restarts never touch the job");

        // The runner, not a pass, stops it once it overruns: no pass runs until its process is gone.
        waitUntil(() -> ProcessHandle.of(jobPid).map(p -> !p.isAlive()).orElse(true), 20);
        pass();
        JsonNode done = job(slow);
        assertEquals("timeout", done.path("state").asText(), done + "\n" + nodeSide(done.path("run_dir").asText()));
        assertEquals("exceeded max runtime of 10s", done.path("last_error").asText());
        JsonNode events = cli.json("queue", "events", "--job", String.valueOf(slow)).path("events");
        assertTrue(events.toString().contains("job_timeout"), events.toString());
        assertTrue(events.toString().contains("\"runner\":true"), "the runner enforced it: " + events);
    }

    /** The runner logs and the job's run directory, for a failure message. */
    String nodeSide(String runDir) throws IOException {
        StringBuilder sb = new StringBuilder();
        Path spool = tmp.resolve("spool");
        if (Files.isDirectory(spool)) {
            try (Stream<Path> dirs = Files.list(spool)) {
                for (Path d : dirs.toList()) {
                    Path log = d.resolve("runner.log");
                    sb.append("--- ").append(log).append('\n').append(Files.exists(log) ? Files.readString(log) : "(none)");
                }
            }
        }
        Path dir = Path.of(runDir);
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.sorted().toList()) {
                    sb.append("--- ").append(f.getFileName()).append(": ")
                            .append(Files.size(f) < 400 ? Files.readString(f).strip() : "(" + Files.size(f) + " bytes)")
                            .append('\n');
                }
            }
        }
        return sb.toString();
    }

    static List<Long> ids(JsonNode array) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asLong()));
        return out;
    }

    static List<Long> ids(JsonNode array, String field) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path(field).asLong()));
        return out;
    }
}
