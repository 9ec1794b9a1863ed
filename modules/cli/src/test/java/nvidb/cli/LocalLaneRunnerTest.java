package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lane runner scenarios on a node reached through the local transport. */
class LocalLaneRunnerTest extends LaneRunnerScenarios {
    @Override
    String serverKeys() {
        return "    transport: local\n";
    }

    @Test
    void anIdleRunnerExitsAndTheNextWorkStartsAnother() throws Exception {
        config(2);
        long a = laneJob(LANE, 0.2);
        pass();
        waitUntil(() -> ended(a), 30);
        long pid = runner(LANE).path("pid").asLong();
        waitUntil(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), 15);
        pass();
        JsonNode gone = runner(LANE);
        assertFalse(gone.path("up").asBoolean(), "an exited runner is not reported up: " + gone);
        assertEquals(1, cli.run("queue", "lane", LANE, "runner", "--no-tick").exit(), "status exits 1 when not up");
        String log = Files.readString(tmp.resolve("spool").resolve(
                Files.list(tmp.resolve("spool")).findFirst().orElseThrow().getFileName()).resolve("runner.log"));
        assertTrue(log.contains("exiting") || log.contains("nothing left to run"), log);

        long b = laneJob(LANE, 0.2);
        pass();
        settle(b);
        assertEquals("completed", job(b).path("state").asText());
    }

    @Test
    void aStagedJobTheRunnerAlreadyStartedIsCancelledAsTheRunningJobItIsAndKeepsItsRun() throws Exception {
        long a = oneRunningOneStaged(2, 20)[1];
        waitUntil(() -> started(a), 30);
        assertEquals("pending", job(a).path("state").asText(), "no pass has seen the runner start it yet");

        JsonNode cancelled = cli.json("job", "cancel", String.valueOf(a));
        assertTrue(cancelled.path("results").path(0).path("cancelled").asBoolean(), cancelled.toString());
        JsonNode shown = job(a);
        assertEquals("cancelled", shown.path("state").asText());
        assertFalse(shown.path("started_at").isNull(), "the record keeps its start: " + shown);
        assertTrue(shown.path("remote_pid").asLong() > 0, shown.toString());
        java.util.List<String> kinds = new java.util.ArrayList<>();
        shown.path("events").forEach(e -> kinds.add(e.path("kind").asText()));
        assertEquals(java.util.List.of("job_submitted", "job_started", "job_cancelled"), kinds);
        assertTrue(shown.path("events").path(1).path("data").path("runner").asBoolean(), shown.toString());
        long pid = shown.path("remote_pid").asLong();
        waitUntil(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), 15);
        assertFalse(ended(a), "the cancel stopped it: it never logged its end");
    }

    @Test
    void aStagedJobTheRunnerAlreadyRanToTheEndKeepsItsOutcomeWhenCancelled() throws Exception {
        long b = oneRunningOneStaged(2, 0.3)[1];
        waitUntil(() -> ended(b), 30);
        assertEquals("pending", job(b).path("state").asText(), "no pass has seen the runner run it yet");

        Cli.Result r = cli.run("job", "cancel", String.valueOf(b), "--json");
        JsonNode result = r.json().path("results").path(0);
        assertFalse(result.path("cancelled").asBoolean(), r.toString());
        assertEquals("completed", result.path("state").asText(), r.toString());
        JsonNode shown = job(b);
        assertEquals("completed", shown.path("state").asText(), "the runner's outcome stands: " + shown);
        assertEquals(0, shown.path("exit_code").asInt(-1), shown.toString());
        assertFalse(shown.path("started_at").isNull(), shown.toString());
        java.util.List<String> kinds = new java.util.ArrayList<>();
        shown.path("events").forEach(e -> kinds.add(e.path("kind").asText()));
        assertEquals(java.util.List.of("job_submitted", "job_started", "job_finished"), kinds);
    }

    @Test
    void aLaneWithItsRunnerOffIsStartedByTheSchedulerAndStopAnswersWithoutARunner() throws Exception {
        JsonNode off = cli.json("queue", "lane", LANE, "runner", "off");
        assertFalse(off.path("lane").path("runner").asBoolean(), off.toString());
        long a = laneJob(LANE, 0.2);
        long b = laneJob(LANE, 0.2);
        settle(a, b);
        assertEquals(java.util.List.of(a, b), startOrder());
        assertTrue(Files.notExists(tmp.resolve("spool")), "no runner was started for a lane whose runner is off");
        JsonNode status = runner(LANE);
        assertFalse(status.path("enabled").asBoolean());
        assertEquals(0, cli.run("queue", "lane", LANE, "runner", "--no-tick").exit(), "off is not a failure");
        JsonNode stop = cli.json("queue", "lane", LANE, "runner", "stop");
        assertFalse(stop.path("stopped").asBoolean(), stop.toString());
        Cli.Result restart = cli.run("queue", "lane", LANE, "runner", "restart");
        assertEquals(4, restart.exit(), restart.toString());
        assertTrue(restart.err().contains("is off") && restart.err().contains("runner on"), restart.err());
        Cli.Result bad = cli.run("queue", "lane", LANE, "runner", "sideways");
        assertEquals(64, bad.exit());
        assertTrue(bad.err().contains("use status, on, off, stop or restart"), bad.err());
        Cli.Result hard = cli.run("queue", "lane", LANE, "runner", "on", "--hard");
        assertEquals(64, hard.exit());
        Cli.Result zero = cli.run("queue", "lane", LANE, "concurrency", "0");
        assertEquals(64, zero.exit());
        assertTrue(zero.err().contains("at least 1"), zero.err());
        assertEquals(2, cli.json("queue", "lane", LANE, "concurrency", "2").path("lane").path("concurrency").asInt());
    }

    @Test
    void aRunnerWhoseScriptChangedIsReplacedAndTheNewOneAdoptsTheJob() throws Exception {
        long[] ab = oneRunningOneStaged(8, 0.2);
        long a = ab[0];
        long b = ab[1];
        Cli.Result said = cli.run("queue", "lane", LANE, "runner", "restart");
        assertEquals(0, said.exit(), said.toString());
        assertTrue(said.out().contains("runner replaced; jobs it started keep running under the new one"), said.out());
        JsonNode old = runner(LANE);
        String oldVersion = old.path("state").path("version").asText();
        // The same fake reached by another path: the probe's fragment, so the runner script, changes.
        String other = box.command().getParent() + "/../bin/nvidia-smi";
        cli.write(".nvidb/queue.yml", Files.readString(cli.nvidbHome().resolve("queue.yml"))
                .replace("nvidia_smi: " + box.command(), "nvidia_smi: " + other));
        pass();
        JsonNode fresh = runner(LANE);
        assertTrue(fresh.path("up").asBoolean(), fresh.toString());
        assertFalse(oldVersion.equals(fresh.path("state").path("version").asText()), "a new version: " + fresh);
        assertFalse(old.path("pid").asLong() == fresh.path("pid").asLong(), "a new runner process");
        assertEquals(java.util.List.of(a), ids(fresh.path("running")), "it adopted the running job: " + fresh);
        settle(a, b);
        assertEquals(java.util.List.of(a, b), startOrder());
    }

    @Test
    void theRunnerKeepsTheJobCapPerGpuAndADrainTakesStagedWorkBack() throws Exception {
        cli.write(".nvidb/queue.yml", Files.readString(cli.nvidbHome().resolve("queue.yml"))
                .replace("  headroom_mb: 512\n", "  headroom_mb: 512\n  max_jobs_per_gpu: 1\n"));
        long wide = laneJob("box:0,1", 8, "--gpus", "2");
        pass();
        waitUntil(() -> started(wide), 30);
        long narrow = laneJob(LANE, 0.2);
        pass(); // staged with lane box:0's runner, which finds GPU 0 at its cap
        waitUntil(() -> runner(LANE).path("waiting").isTextual(), 10);
        assertTrue(runner(LANE).path("waiting").asText().contains("max_jobs_per_gpu"), runner(LANE).toString());
        waitUntil(() -> ended(wide), 30);
        Thread.sleep(1500);
        assertFalse(started(narrow), "the runner goes by the controller's count until the next pass");
        pass();
        waitUntil(() -> started(narrow), 10);

        // Drain: a job staged with a runner is taken back at once, so nothing new starts there.
        long blocker = laneJob(LANE, 8);
        long after = laneJob(LANE, 0.2);
        pass();
        waitUntil(() -> started(blocker), 30);
        pass();
        assertEquals(java.util.List.of(after), ids(runner(LANE).path("staged")));
        cli.json("queue", "drain", "box");
        assertEquals(java.util.List.of(), ids(runner(LANE).path("staged")), "drain withdrew the staged job");
        waitUntil(() -> ended(blocker), 30);
        Thread.sleep(1500);
        assertFalse(started(after), "nothing starts on a drained node");
        assertEquals("node box is drained", cli.json("queue", "lane", LANE, "--no-tick").path("blocked").asText());
        cli.json("queue", "resume", "box");
        settle(after);
    }

    @Test
    void aLaneOfConcurrencyTwoRunsTwoAtOnceButCountsTheMemoryItsYoungJobsReserved() throws Exception {
        cli.json("queue", "lane", LANE, "concurrency", "2");
        long a = laneJob(LANE, 4, "--vram", "8G");
        long b = laneJob(LANE, 12, "--vram", "8G");
        long c = laneJob(LANE, 0.2, "--vram", "16G");
        pass(); // stages a and b; the runner starts both
        waitUntil(() -> started(a) && started(b), 30);
        pass(); // stages c, which has to wait for a slot
        waitUntil(() -> ended(a), 30);
        Thread.sleep(1500); // a slot is free, but b's 8 GiB (not yet visible to the driver) leave 15,860 MiB
        pass();
        assertFalse(started(c), "c would overfill the card together with b's reservation");
        assertTrue(runner(LANE).path("waiting").asText().contains("job " + c + " needs 16384 MiB"), runner(LANE).toString());
        settle(a, b, c);
        Map<Long, Map<String, Double>> t = times();
        assertTrue(t.get(b).get("start") < t.get(a).get("end"), "a and b ran side by side: " + t);
        assertTrue(t.get(c).get("start") >= t.get(b).get("end"), "c started once b was done: " + t);
        assertTrue(t.get(c).get("start") - t.get(b).get("end") < 2.0, t.toString());
    }

    @Test
    void aLaneOnACardTheNodeLacksOrMayNotUseWaitsAndSaysWhy() throws Exception {
        long missing = laneJob("box:5", 0.2);
        pass();
        JsonNode lane = cli.json("queue", "lane", "box:5", "--no-tick");
        assertEquals("node box has no GPU 5 (the last probe saw 0,1)", lane.path("blocked").asText(), lane.toString());
        assertEquals("pending", job(missing).path("state").asText());
        assertTrue(Files.notExists(tmp.resolve("spool")), "nothing was handed to a runner");

        cli.write(".nvidb/queue.yml", Files.readString(cli.nvidbHome().resolve("queue.yml"))
                .replace("    nvidia_smi: ", "    gpus: [0]\n    nvidia_smi: "));
        long outside = laneJob(LANE1, 0.2);
        pass();
        assertEquals("GPU 1 of node box is not in its gpu_ids allowlist [0]",
                cli.json("queue", "lane", LANE1, "--no-tick").path("blocked").asText());
        assertFalse(started(outside));
        long inside = laneJob(LANE, 0.2);
        pass();
        settle(inside);
        assertEquals(java.util.List.of(inside), startOrder(), "only the allowed card's lane ran");
    }
}
