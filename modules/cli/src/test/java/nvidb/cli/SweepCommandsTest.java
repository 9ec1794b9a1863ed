package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parameter sweeps through the real command line: every run is a real job started by the real
 * local transport on node {@code box}, whose two GPUs are a fake nvidia-smi. Runs write their
 * own start and end times, so the limit on parallel runs is checked against what really ran.
 */
class SweepCommandsTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path times;
    DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        FakeNvidiaSmi box = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:sweeps");
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  headroom_mb: 512\n  lane_poll_interval: 1\n"
                + "  lane_spool_root: " + tmp.resolve("spool") + "\nservers:\n  - nickname: box\n    transport: local\n"
                + "    nvidia_smi: " + box.command() + "\n    job_root: " + tmp.resolve("jobs") + "\n");
        times = tmp.resolve("times.log");
        Files.writeString(times, "");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"));
    }

    private Cli.Result waitSweep(long id) {
        return cli.run("sweep", "wait", String.valueOf(id), "--timeout", "60", "--json");
    }

    @Test
    void aGridRunsEveryCombinationAndShowRanksTheResultsTheRunsWrote() throws Exception {
        String script = "echo \"$NVIDB_SWEEP_ID $NVIDB_SWEEP_INDEX $NVIDB_PARAM_A $NVIDB_PARAM_B $1 $2\"\n"
                + "echo 'epoch 3/3' > \"$NVIDB_STATUS_FILE\"\n"
                + "case \"$2\" in\n"
                + "  x) printf '{\"loss\": %s, \"eval\": {\"acc\": 0.%s}}' \"$1\" \"$1\" > \"$NVIDB_JOB_DIR/result.json\";;\n"
                + "  y) if [ \"$1\" = 2 ]; then printf '{\"eval\": {\"note\": \"n\"}, \"tag\": \"t\"}' > \"$NVIDB_JOB_DIR/result.json\"; fi;;\n"
                + "esac\n";
        JsonNode made = cli.json("job", "sweep", "-n", "grid", "--grid", "a=1,2", "--grid", "b=x,y", "--vram", "1G",
                "--tag", "sw", "--", "sh", "-c", script, "_", "{a}", "{b}");
        long sweep = made.path("sweep").path("id").asLong();
        assertEquals(4, made.path("runs").size(), made.toString());
        assertEquals("grid-3", made.path("runs").path(3).path("name").asText());
        assertEquals("2", made.path("runs").path(2).path("params").path("a").asText());
        List<Long> jobs = new ArrayList<>();
        made.path("runs").forEach(r -> jobs.add(r.path("job_id").asLong()));

        JsonNode after = cli.json("job", "submit", "--gpus", "0", "--after", "sweep:" + sweep, "--", "true");
        List<Long> deps = new ArrayList<>();
        after.path("job").path("depends_on").forEach(d -> deps.add(d.asLong()));
        assertEquals(jobs, deps, "--after sweep:ID waits for every run");

        Cli.Result waited = waitSweep(sweep);
        assertEquals(0, waited.exit(), waited.toString());
        assertEquals(4, waited.json().path("sweep").path("states").path("completed").asInt(), waited.toString());
        assertEquals(sweep + " 2 2 x 2 x\n", cli.json("job", "logs", String.valueOf(jobs.get(2))).path("log").asText());
        JsonNode shown = cli.json("job", "show", String.valueOf(jobs.get(1)));
        assertEquals("1", shown.path("env").path("NVIDB_SWEEP_INDEX").asText(), shown.toString());
        assertEquals("y", shown.path("env").path("NVIDB_PARAM_B").asText());
        assertEquals("sw", shown.path("tags").path(0).asText(), "every submit option applies");

        JsonNode best = cli.json("sweep", "show", String.valueOf(sweep), "--metric", "loss");
        assertEquals(0, best.path("best_index").asInt(), best.toString());
        assertEquals(List.of("loss", "eval.acc"), texts(best.path("metric_columns")));
        assertEquals(List.of(0, 1, 2, 3), ints(best.path("rows"), "index"), "only the best moves first");
        assertTrue(best.path("rows").path(0).path("best").asBoolean());
        JsonNode noResult = best.path("rows").path(1);
        assertTrue(noResult.path("result").isNull() && noResult.path("metrics").isEmpty(), noResult.toString());
        assertEquals("epoch 3/3", noResult.path("progress").asText());
        JsonNode noNumbers = best.path("rows").path(3);
        assertEquals("n", noNumbers.path("result").path("eval").path("note").asText(), noNumbers.toString());
        assertTrue(noNumbers.path("metrics").isEmpty());
        JsonNode max = cli.json("sweep", "show", String.valueOf(sweep), "--metric", "eval.acc", "--max", "--sort");
        assertEquals(List.of(2, 0, 1, 3), ints(max.path("rows"), "index"), "sorted: the runs without it last, by index");
        assertEquals(0.2, max.path("rows").path(0).path("metrics").path("eval.acc").asDouble());
        Cli.Result human = cli.run("sweep", "show", String.valueOf(sweep), "--metric", "loss", "-n", "2");
        assertTrue(human.out().contains("best by loss: run 0") && human.out().contains("eval.acc"), human.toString());

        String csv = cli.run("sweep", "export", String.valueOf(sweep), "--csv").out();
        List<String> lines = csv.lines().toList();
        assertEquals("index,job_id,name,a,b,state,exit_code,elapsed_s,progress,loss,eval.acc", lines.get(0));
        assertEquals(5, lines.size(), csv);
        assertTrue(lines.get(2).startsWith("1," + jobs.get(1) + ",grid-1,1,y,completed,0,") && lines.get(2).endsWith(",epoch 3/3,,"),
                lines.get(2));
        assertTrue(lines.get(3).endsWith(",2,0.2"), lines.get(3));
        List<String> jsonl = cli.run("sweep", "export", String.valueOf(sweep), "--jsonl").out().lines().toList();
        assertEquals(4, jsonl.size());
        assertEquals(1.0, Cli.JSON.readTree(jsonl.get(0)).path("metrics").path("loss").asDouble());

        assertEquals(jobs.reversed(), ids(cli.json("job", "ls", "--sweep", String.valueOf(sweep)).path("jobs")));
        JsonNode ls = cli.json("sweep", "ls").path("sweeps").path(0);
        assertEquals(4, ls.path("runs").asInt());
        assertEquals(4, ls.path("states").path("completed").asInt(), ls.toString());
        JsonNode follow = cli.run("job", "wait", String.valueOf(after.path("job").path("id").asLong()), "--timeout", "30",
                "--json").json();
        assertEquals("completed", follow.path("jobs").path(0).path("state").asText(), follow.toString());
    }

    @Test
    void hostileValuesReachTheRunIntactAsOneWordOrInAShellString() throws Exception {
        List<String> values = List.of("a b; touch PWNED", "$(touch PWNED)", "it's \"quoted\"", "`touch PWNED`");
        StringBuilder file = new StringBuilder();
        for (String v : values) {
            file.append(Cli.JSON.writeValueAsString(java.util.Map.of("v", v))).append('\n');
        }
        Path params = tmp.resolve("runs.jsonl");
        Files.writeString(params, file.toString());
        JsonNode words = cli.json("job", "sweep", "--gpus", "0", "--params-file", params.toString(), "--", "printf",
                "%s\\n", "{v}");
        JsonNode shell = cli.json("job", "sweep", "--gpus", "0", "--params-file", params.toString(), "--",
                "printf '<%s>\\n' {v} \"[{v}]\" '({v})'");
        // No placeholder: the shell reads the value from the run's environment, never as its text.
        JsonNode env = cli.json("job", "sweep", "--gpus", "0", "--params-file", params.toString(), "--", "sh", "-c",
                "printf '%s\\n' \"$NVIDB_PARAM_V\"");
        assertEquals(0, waitSweep(words.path("sweep").path("id").asLong()).exit());
        assertEquals(0, waitSweep(shell.path("sweep").path("id").asLong()).exit());
        assertEquals(0, waitSweep(env.path("sweep").path("id").asLong()).exit());
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            assertEquals(v + "\n", log(words.path("runs").path(i).path("job_id").asLong()));
            assertEquals("<" + v + ">\n<[" + v + "]>\n<(" + v + ")>\n", log(shell.path("runs").path(i).path("job_id").asLong()));
            assertEquals(v + "\n", log(env.path("runs").path(i).path("job_id").asLong()));
            assertEquals(v, cli.json("job", "show", String.valueOf(words.path("runs").path(i).path("job_id").asLong()))
                    .path("env").path("NVIDB_PARAM_V").asText());
        }
        try (var found = Files.walk(tmp)) {
            assertEquals(List.of(), found.filter(p -> p.getFileName().toString().equals("PWNED")).toList(),
                    "no part of a value ran");
        }
        String sweep = words.path("sweep").path("id").asText();
        JsonNode rows = cli.json("sweep", "show", sweep).path("rows");
        for (int i = 0; i < values.size(); i++) {
            assertEquals(values.get(i), rows.path(i).path("params").path("v").asText(), rows.toString());
        }
        // A hand-edited database: parameters that do not read show as none, the rest of the sweep as before.
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             java.sql.Statement st = c.createStatement()) {
            assertEquals(2, st.executeUpdate("UPDATE sweep_runs SET params = CASE run_index WHEN 0 THEN 'not json'"
                    + " ELSE '{\"v\": [1]}' END WHERE sweep_id = " + sweep + " AND run_index < 2"));
        }
        Cli.Result edited = cli.run("sweep", "show", sweep, "--json");
        assertEquals(0, edited.exit(), edited.toString());
        rows = edited.json().path("rows");
        assertTrue(rows.path(0).path("params").isEmpty() && rows.path(1).path("params").isEmpty(), rows.toString());
        assertEquals(values.get(2), rows.path(2).path("params").path("v").asText());
        assertEquals("completed", rows.path(0).path("state").asText());
    }

    @Test
    void maxParallelHoldsWithADaemonAndConcurrentTicks() throws Exception {
        daemon = DaemonProcess.start(cli);
        daemon.awaitFirstPass();
        // Runs long enough that two overlap even where a loaded machine makes each launch slow.
        JsonNode made = cli.json("job", "sweep", "--max-parallel", "2", "--vram", "1G", "--grid", "i=0,1,2,3,4",
                "--", timedRun(3));
        long sweep = made.path("sweep").path("id").asLong();
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> tickers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            tickers.add(Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    cli.run("queue", "tick", "--json");
                }
            }));
        }
        Cli.Result waited;
        try {
            waited = waitSweep(sweep);
        } finally {
            done.set(true);
            for (Thread t : tickers) {
                t.join();
            }
        }
        assertEquals(0, waited.exit(), waited.toString());
        assertEquals(2, maxOverlap(), Files.readString(times));
    }

    @Test
    void maxParallelHoldsInALaneWhoseRunnerCouldRunMore() throws Exception {
        cli.json("queue", "lane", "box:0", "concurrency", "3");
        JsonNode made = cli.json("job", "sweep", "--lane", "box:0", "--max-parallel", "2", "--vram", "1G",
                "--grid", "i=0,1,2,3,4", "--", timedRun(2.5));
        long sweep = made.path("sweep").path("id").asLong();
        AtomicBoolean done = new AtomicBoolean();
        Thread ticker = Thread.ofPlatform().start(() -> {
            while (!done.get()) {
                cli.run("queue", "tick", "--json");
            }
        });
        Cli.Result waited;
        try {
            waited = waitSweep(sweep);
        } finally {
            done.set(true);
            ticker.join();
        }
        assertEquals(0, waited.exit(), waited.toString());
        assertEquals(2, maxOverlap(), Files.readString(times));
    }

    @Test
    void cancelAndRequeueActOnTheSweepsRuns() throws Exception {
        long failing = cli.json("job", "sweep", "--gpus", "0", "--grid", "code=0,3,4", "--", "sh", "-c", "exit {code}")
                .path("sweep").path("id").asLong();
        Cli.Result waited = waitSweep(failing);
        assertEquals(1, waited.exit(), "as job wait: a run ended badly: " + waited);
        JsonNode requeued = cli.json("sweep", "requeue", String.valueOf(failing), "--failed");
        assertEquals(2, requeued.path("requeued").size(), requeued.toString());
        assertEquals(64, cli.run("sweep", "requeue", String.valueOf(failing)).exit(), "which runs must be said");

        long slow = cli.json("job", "sweep", "--gpus", "0", "--grid", "s=30,31", "--", "sleep", "{s}")
                .path("sweep").path("id").asLong();
        JsonNode cancelled = cli.json("sweep", "cancel", String.valueOf(slow));
        assertEquals(2, cancelled.path("cancelled").size(), cancelled.toString());
        JsonNode shown = cli.json("sweep", "show", String.valueOf(slow));
        assertEquals(2, shown.path("states").path("cancelled").asInt(), shown.toString());
        assertEquals(1, cli.run("sweep", "wait", String.valueOf(slow)).exit());
        assertEquals(3, cli.run("sweep", "show", "99").exit(), "an unknown sweep is not found");
    }

    @Test
    void aRetryWithTheSameKeyGivesTheSameSweepAndRefusalsLeaveNothing() throws Exception {
        String[] submit = {"job", "sweep", "--gpus", "0", "--no-tick", "--idempotency-key", "k1", "--zip", "s=1,2",
                "--zip", "d=a,b", "--", "echo", "{s}", "{d}"};
        JsonNode first = cli.json(submit);
        JsonNode again = cli.json(submit);
        assertEquals(first.path("sweep").path("id"), again.path("sweep").path("id"));
        assertTrue(again.path("duplicate").asBoolean());
        assertEquals(first.path("runs"), again.path("runs"));
        assertEquals(2, cli.json("job", "ls").path("jobs").size(), "the retry made no job");

        Cli.Result unknown = cli.run("job", "sweep", "--grid", "lr=1,2", "--", "train", "--lr", "{rate}");
        assertEquals(64, unknown.exit());
        assertTrue(unknown.err().contains("placeholder {rate} names no parameter; parameter lr is used nowhere in the"
                        + " command (write {lr}, or read $NVIDB_PARAM_LR)"),
                unknown.toString());
        assertEquals(64, cli.run("job", "sweep", "--zip", "a=1,2", "--zip", "b=1", "--", "x", "{a}", "{b}").exit());
        Cli.Result missing = cli.run("job", "sweep", "--gpus", "0", "--after", "999", "--grid", "a=1,2", "--", "echo", "{a}");
        assertEquals(3, missing.exit(), missing.toString());

        String[] dry = {"job", "sweep", "--dry-run", "--random", "5", "--seed", "7", "--range", "lr=loguniform:1e-5:1e-2",
                "--range", "bs=choice:32,64", "--", "train", "--lr", "{lr}", "--bs", "{bs}"};
        JsonNode preview = cli.json(dry);
        assertTrue(preview.path("dry_run").asBoolean());
        assertEquals(5, preview.path("runs").size());
        assertEquals(preview.path("runs"), cli.json(dry).path("runs"), "the same seed, the same runs");
        assertTrue(preview.path("runs").path(0).path("job_id").isNull());
        assertTrue(cli.run(dry).out().contains("nothing was submitted"));
        assertEquals(1, cli.json("sweep", "ls").path("sweeps").size(), "refusals and dry runs made no sweep");
        assertEquals(2, cli.json("job", "ls").path("jobs").size(), "nor any job");
    }

    /** A run that logs its start and end (this machine's clock) around a sleep. */
    private String timedRun(double seconds) {
        return "echo \"start $(date +%s.%N) $NVIDB_SWEEP_INDEX {i}\" >> " + times + "; sleep " + seconds
                + "; echo \"end $(date +%s.%N) $NVIDB_SWEEP_INDEX\" >> " + times;
    }

    /** The most runs that were running at one moment, from their own start and end times. */
    private int maxOverlap() throws Exception {
        List<double[]> events = new ArrayList<>();
        for (String line : Files.readAllLines(times)) {
            String[] f = line.split(" ");
            events.add(new double[] {Double.parseDouble(f[1]), f[0].equals("start") ? 1 : -1});
        }
        events.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
        int now = 0;
        int max = 0;
        for (double[] e : events) {
            now += (int) e[1];
            max = Math.max(max, now);
        }
        assertEquals(0, now, "every run ended");
        return max;
    }

    private String log(long job) {
        return cli.json("job", "logs", String.valueOf(job)).path("log").asText();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<Integer> ints(JsonNode rows, String key) {
        List<Integer> out = new ArrayList<>();
        rows.forEach(n -> out.add(n.path(key).asInt()));
        return out;
    }

    private static List<Long> ids(JsonNode jobs) {
        List<Long> out = new ArrayList<>();
        jobs.forEach(n -> out.add(n.path("id").asLong()));
        return out;
    }
}
