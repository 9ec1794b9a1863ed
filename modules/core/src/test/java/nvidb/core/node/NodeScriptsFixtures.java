package nvidb.core.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;

/** Jobs and filled-in node scripts for the tests, and a real {@code sh -s} to run them. */
final class NodeScriptsFixtures {
    /**
     * Everything a value might hold to break out of its word: quotes, $(…) and backticks that
     * would create {@code canary}, backslashes, a newline, a leading option.
     */
    static String evil(java.nio.file.Path canary) {
        return "-n a'b\"c $(touch '" + canary + "') `touch \"" + canary + "\"` \\n;x\nnewline '' \\";
    }

    private NodeScriptsFixtures() {
    }

    static Job job(long id, String name, String command, String workdir, Map<String, String> env) {
        return new Job(id, name, JobState.PENDING, command, workdir, env, 0, 1, 0, null, List.of(), List.of(), null, "t",
                List.of(), null, null, null, null, null, List.of(), null, null, null, null, null, null, 0, 0, null, null,
                null, null, null, null, null, null, null);
    }

    /** Every script nvidb sends, with {@code value} in every name, path and text, by a name that says which. */
    static Map<String, String> filledIn(String value) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("VALUE", value);
        env.put("EMPTY", "");
        env.put("not-a-name", value);
        Job job = job(7, value, "echo " + value, "/w " + value, env);
        NodeScripts.LaunchSpec spec = new NodeScripts.LaunchSpec(job, "node " + value, "~/jobs " + value + "/", List.of(0, 3), 2);
        LaneRunner runner = new LaneRunner("echo 0 100");
        LaneRunner.Staged staged = new LaneRunner.Staged(7, 1000, "/r " + value, 1024, 60, NodeScripts.runScript(spec), value);
        LaneRunner.Sync wanted = new LaneRunner.Sync("box:0 " + value, List.of(0, 1), 2, 512, 4,
                List.of(new LaneRunner.OtherWork(0, 1, 2048)), List.of(staged, staged), true);
        LaneRunner.Sync idle = new LaneRunner.Sync("idle", List.of(2), 1, 0, 4, List.of(), List.of(), false);
        Map<String, String> scripts = new LinkedHashMap<>();
        scripts.put("run.sh", NodeScripts.runScript(spec));
        scripts.put("launch", NodeScripts.launch(spec));
        scripts.put("terminate", NodeScripts.terminate("/r " + value, 42, 42, 10));
        scripts.put("terminate without a group", NodeScripts.terminate("/r " + value, 42, null, 10));
        scripts.put("tail", NodeScripts.tail("/r " + value, "stderr.log", 25));
        scripts.put("probe", new NodeProbeScript(value).script("echo 0 100",
                List.of(new NodeProbeScript.JobDir(7, "/r " + value), new NodeProbeScript.JobDir(8, "/s"))));
        scripts.put("probe without jobs", new NodeProbeScript().script("", List.of()));
        scripts.put("runner.sh", runner.script());
        scripts.put("lane sync", runner.syncScript("spool " + value, new LaneRunner.Timing(3, 900), List.of(wanted, idle), value));
        scripts.put("lane stop", LaneRunner.stopScript("/spool " + value, "box:0 " + value, true, true, value));
        scripts.put("lane withdraw", LaneRunner.withdrawScript("/spool " + value, "box:0 " + value, 7, "/r " + value));
        return scripts;
    }

    /** Runs a script with {@code sh -s}, the way the local transport does; stdout and stderr together. */
    static String sh(String script) throws Exception {
        return sh(script, Map.of());
    }

    /** {@link #sh(String)} with these variables added to its environment. */
    static String sh(String script, Map<String, String> env) throws Exception {
        ProcessBuilder b = new ProcessBuilder("sh", "-s").redirectErrorStream(true);
        b.environment().putAll(env);
        Process p = b.start();
        p.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return out;
    }
}
