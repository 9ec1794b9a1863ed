package nvidb.core.node;

import static nvidb.core.node.NodeScriptsFixtures.evil;
import static nvidb.core.node.NodeScriptsFixtures.job;
import static nvidb.core.node.NodeScriptsFixtures.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job scripts and the probe run by a real sh, with values that try to escape their quotes. */
class NodeScriptsTest {
    @TempDir
    Path tmp;

    private static void await(Path file) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (!Files.exists(file)) {
            assertTrue(System.currentTimeMillis() < deadline, file + " did not appear within 15 s");
            Thread.sleep(50);
        }
    }

    private static LaunchResult launch(NodeScripts.LaunchSpec spec) throws Exception {
        return LaunchResult.parse(sh(NodeScripts.launch(spec)), "");
    }

    @Test
    void hostileValuesReachTheJobExactlyAndNeverRunAsShellCode() throws Exception {
        Path canary = tmp.resolve("pwned");
        String evil = evil(canary);
        Path workdir = Files.createDirectories(tmp.resolve("w " + evil));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EVIL", evil);
        env.put("not-a-name", "x");
        env.put("nvidb_workdir", "/"); // a variable of the job's never changes where it starts
        String command = "cd \"$NVIDB_JOB_DIR\"; printf '%s' \"$NVIDB_JOB_NAME\" > seen.name; printf '%s' \"$EVIL\" > seen.env;"
                + " printf '%s' \"$NVIDB_NODE\" > seen.node; printf '%s' \"$CUDA_VISIBLE_DEVICES\" > seen.gpus;"
                + " cd - > /dev/null; pwd -P > \"$NVIDB_JOB_DIR/seen.pwd\"; env > \"$NVIDB_JOB_DIR/seen.all\"; exit 3";
        Job job = job(12, evil, command, workdir.toString(), env);
        // The root without the newline: the answer is read line by line.
        String root = tmp.resolve("jobs " + evil.replace("\n", "_")) + "/";
        LaunchResult r = launch(new NodeScripts.LaunchSpec(job, "node " + evil, root, List.of(0, 3), 2));
        assertTrue(r.started(), String.valueOf(r));
        Path dir = Path.of(r.runDir());
        assertEquals(Path.of(root, "12-attempt-2").toRealPath(), dir);
        await(dir.resolve("exit_code"));
        assertEquals("3", Files.readString(dir.resolve("exit_code")).split(" ")[0], Files.readString(dir.resolve("stderr.log")));
        assertEquals(command + "\n", Files.readString(dir.resolve("command.sh")), "the command is written verbatim");
        assertEquals(evil, Files.readString(dir.resolve("seen.name")));
        assertEquals(evil, Files.readString(dir.resolve("seen.env")));
        assertEquals("node " + evil, Files.readString(dir.resolve("seen.node")));
        assertEquals("0,3", Files.readString(dir.resolve("seen.gpus")));
        assertEquals(workdir.toRealPath() + "\n", Files.readString(dir.resolve("seen.pwd")));
        assertFalse(Files.readString(dir.resolve("seen.all")).contains("not-a-name"));
        assertEquals("1\n", Files.readString(dir.resolve("session")));
        assertFalse(Files.exists(canary), "a value ran as shell code");
    }

    @Test
    void aMissingWorkdirEndsTheJobWith127AndSaysWhichOnWhichNode() throws Exception {
        String missing = tmp.resolve("nope 'q' $(x)").toString();
        LaunchResult r = launch(new NodeScripts.LaunchSpec(job(5, "n", "true", missing, Map.of()), "box", tmp.toString(),
                List.of(0), 1));
        Path dir = Path.of(r.runDir());
        await(dir.resolve("exit_code"));
        assertEquals("127", Files.readString(dir.resolve("exit_code")).split(" ")[0]);
        assertEquals("nvidb: workdir " + missing + " does not exist on box (or is not a directory we may enter)\n",
                Files.readString(dir.resolve("stderr.log")));
    }

    @Test
    void aSecondLaunchAdoptsTheRunningJobAndTerminateStopsItsGroupOnce() throws Exception {
        NodeScripts.LaunchSpec spec = new NodeScripts.LaunchSpec(job(6, "n", "sleep 30", null, Map.of()), "box",
                tmp.resolve("jobs").toString(), List.of(0), 1);
        LaunchResult first = launch(spec);
        LaunchResult again = launch(spec);
        assertTrue(again.adopted() && !first.adopted(), again.toString());
        assertEquals(first.pid(), again.pid());
        assertEquals(first.pid(), first.pgid(), "started with setsid: the job leads its own group");
        String stop = NodeScripts.terminate(first.runDir(), first.pid(), first.pgid(), 1);
        assertEquals("NVIDB_SIGNALLED=1\n", sh(stop));
        Path dir = Path.of(first.runDir());
        await(dir.resolve("exit_code"));
        assertEquals("143", Files.readString(dir.resolve("exit_code")).split(" ")[0]);
        assertEquals("NVIDB_SIGNALLED=0\n", sh(stop), "a job that ended is not signalled again");
    }

    @Test
    void twoLaunchesOfOneAttemptAtOnceStartItOnceAndTheOtherAdoptsIt() throws Exception {
        // A client killed mid-launch leaves its launch going on the node while the next pass
        // launches the same attempt there. A setsid that takes a second holds the first launch
        // between "nothing started yet" and the job's pid file, where the second one arrives.
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path slowSetsid = bin.resolve("setsid");
        Files.writeString(slowSetsid, "#!/bin/sh\nsleep 1\nexec /usr/bin/setsid \"$@\"\n");
        assertTrue(slowSetsid.toFile().setExecutable(true));
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"));
        Path marker = tmp.resolve("starts");
        NodeScripts.LaunchSpec spec = new NodeScripts.LaunchSpec(job(20, "n", "echo started >> " + marker + "; sleep 30",
                null, Map.of()), "box", tmp.resolve("jobs").toString(), List.of(0), 1);
        String script = NodeScripts.launch(spec);
        java.util.concurrent.CompletableFuture<String> a = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> shUnchecked(script, env));
        Thread.sleep(300);
        LaunchResult second = LaunchResult.parse(sh(script, env), "");
        LaunchResult first = LaunchResult.parse(a.get(), "");
        try {
            assertTrue(first.started() && second.started(), first + " / " + second);
            assertEquals(first.pid(), second.pid(), "both name the one process");
            assertTrue(!first.adopted() && second.adopted(), "the first started it, the second adopted it: " + second);
            assertFalse(Files.exists(Path.of(first.runDir(), "launching")), "the lock is let go");
            await(marker);
            Thread.sleep(500);
            assertEquals(List.of("started"), Files.readAllLines(marker), "one start");
        } finally {
            sh(NodeScripts.terminate(first.runDir(), first.pid(), first.pgid(), 1));
            awaitGroupGone(first.pgid()); // its wrapper writes into the run folder until then, which JUnit deletes
        }
    }

    private static void awaitGroupGone(long pgid) throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        while (new ProcessBuilder("kill", "-0", "--", "-" + pgid).start().waitFor() == 0) {
            assertTrue(System.currentTimeMillis() < deadline, "process group " + pgid + " still there 15 s after its kill");
            Thread.sleep(50);
        }
    }

    private static String shUnchecked(String script, Map<String, String> env) {
        try {
            return sh(script, env);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void tailReadsTheLastLinesAndAMissingFileAsEmpty() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("run 'x' $(y)"));
        Files.writeString(dir.resolve("stdout.log"), "1\n2\n3\n");
        assertEquals("2\n3\n", sh(NodeScripts.tail(dir.toString(), "stdout.log", 2)));
        assertEquals("", sh(NodeScripts.tail(dir.toString(), "stderr.log", 2)));
    }

    @Test
    void theProbeReportsTheNodeTheGpuSectionAndEachJobDirectory() throws Exception {
        LaunchResult r = launch(new NodeScripts.LaunchSpec(job(9, "n", "echo out; echo oops >&2; exit 2", null, Map.of()),
                "box", tmp.resolve("jobs 'j'").toString(), List.of(0), 1));
        Path dir = Path.of(r.runDir());
        await(dir.resolve("exit_code"));
        Files.writeString(dir.resolve("status"), "first\nlast status\n");
        Files.writeString(dir.resolve("result.json"), "{\"loss\": 1}");
        NodeProbeScript probe = new NodeProbeScript();
        NodeReport report = probe.parse(sh(probe.script("echo \"gpu $#\"",
                List.of(new NodeProbeScript.JobDir(9, dir.toString()), new NodeProbeScript.JobDir(10, tmp.resolve("none").toString())))));
        assertEquals("gpu 0\n", report.gpuOutput(), "the fragment runs with no arguments");
        assertFalse(report.kernel().isEmpty());
        NodeReport.JobDirState nine = report.jobs().get(9L);
        assertEquals(2, nine.exitCode());
        assertFalse(nine.alive());
        assertTrue(nine.session());
        assertEquals("last status", nine.status());
        assertEquals("{\"loss\": 1}", nine.result());
        assertEquals("oops", nine.outputTail());
        NodeReport.JobDirState ten = report.jobs().get(10L);
        assertNull(ten.pid());
        assertNull(ten.exitCode());
        assertThrows(IllegalStateException.class, () -> probe.parse("@@nvidb-x node\n"), "no end marker");
    }

    @Test
    void runDirectoriesLiveUnderTheRootOrTheNodesHome() {
        assertEquals("/data/jobs/12", NodeScripts.runDir("/home/a", "/data/jobs/", 12, 1));
        assertEquals("/home/a/.nvidb/jobs/12-attempt-3", NodeScripts.runDir("/home/a/", "~/.nvidb/jobs", 12, 3));
        assertEquals("/home/a/rel/7", NodeScripts.runDir("/home/a", "rel", 7, 0));
    }
}
