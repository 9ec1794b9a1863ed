package nvidb.core.node;

import static nvidb.core.node.NodeScriptsFixtures.job;
import static nvidb.core.node.NodeScriptsFixtures.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lane runner's names, version, the controller's scripts run by a real sh, and reading the answers. */
class LaneRunnerTest {
    @TempDir
    Path tmp;

    @Test
    void aSlugIsSafeShortAndUniquePerLaneName() {
        assertTrue(LaneRunner.slug("box406:0").matches("box406_0-[0-9a-f]{8}"), LaneRunner.slug("box406:0"));
        assertTrue(LaneRunner.slug("alice@gpu-1:0,1").matches("alice_gpu-1_0_1-[0-9a-f]{8}"));
        assertNotEquals(LaneRunner.slug("a:0,1"), LaneRunner.slug("a:0_1"), "the hash keeps look-alike names apart");
        assertTrue(LaneRunner.slug("::").startsWith("lane-"));
        String longName = "n".repeat(80) + ":0";
        assertEquals(48 + 9, LaneRunner.slug(longName).length());
        assertEquals(LaneRunner.slug("box406:0"), LaneRunner.slug("box406:0"));
    }

    @Test
    void theVersionIsAHashOfTheWholeScriptSoAnotherProbeCommandMeansAnotherRunner() {
        LaneRunner a = new LaneRunner("echo 0 100");
        LaneRunner b = new LaneRunner("echo 0 200");
        assertTrue(a.version().matches("[0-9a-f]{12}"));
        assertNotEquals(a.version(), b.version());
        assertEquals(a.version(), new LaneRunner("echo 0 100").version());
        assertTrue(a.script().contains("echo 0 100") && !a.script().contains("@FREE@") && !a.script().contains("@ALIVE@"));
    }

    @Test
    void specNamesSortBySequenceThenJobWhateverTheCollation() {
        List<String> names = new java.util.ArrayList<>(List.of(LaneRunner.specName(2000, 3), LaneRunner.specName(1000, 12),
                LaneRunner.specName(1000, 9)));
        java.util.Collections.sort(names);
        assertEquals(List.of("000000001000-000000000009", "000000001000-000000000012", "000000002000-000000000003"),
                names);
    }

    @Test
    void theStateFileIsReadAndAnEmptyOneIsNoState() {
        LaneRunner.RunnerState s = LaneRunner.parseState("""
                lane=box:0
                version=abc123abc123
                pid=4242
                at=1796225131
                stopping=0
                waiting=GPU 0 has 100 MiB free after headroom; job 7 needs 8192 MiB
                current=15 50102 1796225000 /home/a b/.nvidb/jobs/15
                queued=000000002000-000000000016
                finished=12 0 1796225001 /home/a/.nvidb/jobs/12
                finished=13 - 1796225002 /home/a/.nvidb/jobs/13
                some_future_key=1
                """);
        assertEquals(4242, s.pid());
        assertEquals(List.of(new LaneRunner.Current(15, 50102, 1796225000L, "/home/a b/.nvidb/jobs/15")), s.current());
        assertEquals(List.of(16L), s.queued());
        assertEquals(0, s.finished().get(0).exitCode());
        assertNull(s.finished().get(1).exitCode(), "vanished without an exit code");
        assertTrue(s.waiting().contains("needs 8192 MiB"));
        assertFalse(s.stopping());
        assertEquals(true, s.toMap(true).get("alive"));
        assertNull(LaneRunner.parseState(""));
        assertNull(LaneRunner.parseState("lane=box:0\nversion=x\n"), "a state cut short is no state");
    }

    @Test
    void anAnswerCutShortIsAnErrorNotAnEmptyLane() {
        assertThrows(IllegalStateException.class, () -> LaneRunner.parseSync("@@m lane 0\nalive=1\n", "@@m", 1));
        List<LaneRunner.LaneAnswer> two = LaneRunner.parseSync(
                "@@m lane 0\nerror=cannot create /x\n@@m lane 1\nalive=0\nspec=000000001000-000000000004\n@@m state\n"
                        + "pid=9\nqueued=000000000001-000000000001\n@@m end\n", "@@m", 2);
        assertEquals("cannot create /x", two.get(0).error());
        assertFalse(two.get(1).alive());
        assertEquals(List.of(4L), two.get(1).state().queued(), "what is staged is what the spool holds now");
    }

    @Test
    void aSyncStagesTheHeadAndWithdrawsTheRestAndAClaimedSpecIsNeverStagedAgain() throws Exception {
        LaneRunner runner = new LaneRunner("");
        Path spool = tmp.resolve("spool");
        String runDir = tmp.resolve("jobs/7").toString();
        LaneRunner.Staged seven = new LaneRunner.Staged(7, 1000, runDir, 1024, 0, "#!/bin/sh\necho run\n", "true");
        LaneRunner.Sync sync = new LaneRunner.Sync("box:0", List.of(0), 1, 512, 4,
                List.of(new LaneRunner.OtherWork(0, 1, 2048)), List.of(seven), false);
        Path slugDir = spool.resolve(LaneRunner.slug("box:0"));
        Files.createDirectories(slugDir.resolve("queue"));
        Files.writeString(slugDir.resolve("queue/000000000500-000000000003"), "job_id=3\n"); // an old head
        LaneRunner.Timing timing = new LaneRunner.Timing(3, 900);
        String out = sh(runner.syncScript(spool.toString(), timing, List.of(sync), "@@t"));
        LaneRunner.LaneAnswer answer = LaneRunner.parseSync(out, "@@t", 1).getFirst();
        assertNull(answer.error(), out);
        assertFalse(answer.alive(), "not wanted: no runner is started");
        String name = LaneRunner.specName(1000, 7);
        assertEquals(List.of(name), list(slugDir.resolve("queue")), "the head staged, the old one withdrawn");
        assertEquals("job_id=7\nrun_dir=" + runDir + "\nvram_mb=1024\nmax_runtime_s=0\n",
                Files.readString(slugDir.resolve("queue").resolve(name)));
        assertEquals("#!/bin/sh\necho run\n", Files.readString(Path.of(runDir, "run.sh")));
        assertEquals("true\n", Files.readString(Path.of(runDir, "command.sh")));
        assertTrue(Files.readString(slugDir.resolve("lane.conf")).contains("other=0 1 2048\n"));

        // The runner claims it (a rename); the next sync must neither stage it again nor touch the claim.
        Files.createDirectories(slugDir.resolve("claimed"));
        Files.move(slugDir.resolve("queue").resolve(name), slugDir.resolve("claimed").resolve(name));
        sh(runner.syncScript(spool.toString(), timing, List.of(sync), "@@t"));
        assertEquals(List.of(), list(slugDir.resolve("queue")));
        assertEquals(List.of(name), list(slugDir.resolve("claimed")));

        // A job whose attempt already started (a pid file) is never handed over again either.
        Files.delete(slugDir.resolve("claimed").resolve(name));
        Files.writeString(Path.of(runDir, "pid"), "12345\n");
        sh(runner.syncScript(spool.toString(), timing, List.of(sync), "@@t"));
        assertEquals(List.of(), list(slugDir.resolve("queue")));
    }

    private static List<String> list(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }

    /** Starts the runner script itself, detached, on a spool prepared by the test. */
    private Process runner(LaneRunner runner, Path spool) throws Exception {
        Files.createDirectories(spool.resolve("queue"));
        Files.writeString(spool.resolve("runner.sh"), runner.script());
        Files.writeString(spool.resolve("lane.conf"), "gpus=0\nconcurrency=1\nheadroom_mb=0\nmax_jobs_per_gpu=4\n");
        return new ProcessBuilder("sh", spool.resolve("runner.sh").toString(), spool.toString(), "t:0", "NVIDB_LANE=test",
                runner.version(), "4", "0").redirectErrorStream(true).redirectOutput(spool.resolve("runner.log").toFile())
                .start();
    }

    private static void stage(Path spool, String name, Path runDir, String command) throws Exception {
        Files.createDirectories(runDir);
        String run = NodeScripts.runScript(new NodeScripts.LaunchSpec(job(7, "", command, null, java.util.Map.of()), "t", "/x",
                List.of(0), 1));
        Files.writeString(runDir.resolve("run.sh"), run);
        Files.writeString(runDir.resolve("command.sh"), command + "\n");
        Files.writeString(spool.resolve("queue/." + name), "job_id=7\nrun_dir=" + runDir + "\nvram_mb=0\nmax_runtime_s=0\n");
        Files.move(spool.resolve("queue/." + name), spool.resolve("queue/" + name));
    }

    /** Waits for {@code ok}; generous, as the whole suite loads 2 cores (a 15 s wait once ran out there). */
    private static void await(java.util.function.BooleanSupplier ok) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!ok.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "condition not met within 60 s");
            Thread.sleep(50);
        }
    }

    @Test
    void theRunnerStartsAStagedJobOnceAndNeverAgainUnderAnotherSequenceNumber() throws Exception {
        Path spool = tmp.resolve("spool");
        Path runDir = tmp.resolve("jobs/7");
        Path marks = tmp.resolve("marks");
        Process p = runner(new LaneRunner(""), spool);
        try {
            stage(spool, LaneRunner.specName(1000, 7), runDir, "echo ran >> " + marks);
            await(() -> Files.exists(runDir.resolve("exit_code")));
            assertEquals("0", Files.readString(runDir.resolve("exit_code")).split(" ")[0]);
            await(() -> {
                try {
                    return Files.readString(spool.resolve("state")).contains("finished=7 0 ");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            // The same attempt handed over again (the lane was reordered): it must not run twice.
            Files.writeString(spool.resolve("queue/" + LaneRunner.specName(2000, 7)),
                    "job_id=7\nrun_dir=" + runDir + "\nvram_mb=0\nmax_runtime_s=0\n");
            await(() -> listQuiet(spool.resolve("queue")).isEmpty());
            Thread.sleep(1500);
            assertEquals("ran\n", Files.readString(marks), "started exactly once");
            assertTrue(Files.readString(spool.resolve("runner.log")).contains("not starting it again"));
        } finally {
            p.destroy();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSyncStartsTheRunnerAStopEndsItAndAWithdrawalTakesBackAStagedSpec() throws Exception {
        LaneRunner runner = new LaneRunner("echo 0 100000");
        Path spool = tmp.resolve("spool 'q' $(x)");
        String lane = "box:0 'q' $(x)";
        LaneRunner.Timing timing = new LaneRunner.Timing(0.25, 0);
        Path runDir = tmp.resolve("jobs/8");
        LaneRunner.Staged eight = new LaneRunner.Staged(8, 1000, runDir.toString(), 0, 0,
                NodeScripts.runScript(new NodeScripts.LaunchSpec(job(8, "", "sleep 30", null, java.util.Map.of()), "t", "/x",
                        List.of(0), 1)), "sleep 30");
        // Not wanted: the spec is staged but no runner starts, and a withdrawal takes it back.
        LaneRunner.Sync idle = new LaneRunner.Sync(lane, List.of(0), 1, 0, 4, List.of(), List.of(eight), false);
        LaneRunner.LaneAnswer staged = LaneRunner.parseSync(sh(runner.syncScript(spool.toString(), timing, List.of(idle), "@@t")),
                "@@t", 1).getFirst();
        assertNull(staged.error());
        assertFalse(staged.started() || staged.alive(), staged.toString());
        Path queue = spool.resolve(LaneRunner.slug(lane)).resolve("queue");
        assertEquals(List.of(LaneRunner.specName(1000, 8)), list(queue));
        assertEquals("", sh(LaneRunner.withdrawScript(spool.toString(), lane, 8, runDir.toString())));
        assertEquals(List.of(), list(queue));

        LaneRunner.Sync wanted = new LaneRunner.Sync(lane, List.of(0), 1, 0, 4, List.of(), List.of(), true);
        LaneRunner.LaneAnswer started = LaneRunner.parseSync(sh(runner.syncScript(spool.toString(), timing, List.of(wanted), "@@t")),
                "@@t", 1).getFirst();
        assertTrue(started.started() && started.alive(), started.toString());
        assertEquals(runner.version(), started.state().version());
        assertEquals(lane, started.state().lane());
        LaneRunner.LaneAnswer stopped = LaneRunner.parseLane(sh(LaneRunner.stopScript(spool.toString(), lane, true, false, "@@t")),
                "@@t");
        assertTrue(stopped.stopped(), stopped.toString());
        assertFalse(stopped.alive(), "a hard stop ends the runner before the answer");
        assertFalse(LaneRunner.parseLane(sh(LaneRunner.stopScript(spool.toString(), lane, true, false, "@@t")), "@@t").stopped());
    }

    private static List<String> listQuiet(Path dir) {
        try {
            return list(dir);
        } catch (Exception e) {
            return List.of("?");
        }
    }
}
