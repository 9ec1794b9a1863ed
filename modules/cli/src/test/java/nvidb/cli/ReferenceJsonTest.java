package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripts written against the reference nvidb's documented JSON keep working: every JSON example
 * of reference-cli.md ({@code reference-json/examples.txt}) is produced here by our command in the
 * situation the example shows, on one queue (the real command line in this JVM, a real SQLite file,
 * jobs run by the local transport on node {@code box} with a fake nvidia-smi and two GPUs), and
 * must have every key path of the example with the same JSON type ({@link ReferenceShapes}).
 *
 * <p>The differences kept on purpose are in {@link #KEPT}, each with the decision that keeps it.
 */
class ReferenceJsonTest {
    /**
     * Key paths where ours differs from the reference on purpose, with the reason: the path as
     * {@link ReferenceShapes} names it, then why.
     */
    static final Map<String, String> KEPT = Map.of(
            "nodes.nodes[0].gpus[0].processes[0].type",
            "null: the probe's nvidia-smi query (decisions.md §3: pid, gpu_uuid, used_memory, process_name) does"
                    + " not report a process's type");

    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi smi;
    ReferenceShapes shapes;
    final List<String> differences = new ArrayList<>();
    final Set<String> checked = new LinkedHashSet<>();

    @BeforeEach
    void setUp() throws Exception {
        shapes = ReferenceShapes.load();
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "agent:demo");
        smi = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564)
                .foreignProcess(4242, 1, 6000, "python");
        configure("");
    }

    private void configure(String extraQueueKeys) throws Exception {
        String node = "    transport: local\n    hostname: localhost\n    username: tester\n    nvidia_smi: " + smi.command()
                + "\n";
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  lane_poll_interval: 1\n  lane_idle_exit: 30\n"
                + "  lane_spool_root: " + tmp.resolve("spool") + "\n  notify:\n    desktop: false\n" + extraQueueKeys
                + "servers:\n  - nickname: box\n" + node + "    job_root: " + tmp.resolve("jobs") + "\n"
                + "  - nickname: spare\n" + node + "    job_root: " + tmp.resolve("spare-jobs") + "\n");
    }

    @AfterEach
    void tearDown() throws Exception {
        cli.run("queue", "keeper", "stop");
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"), tmp.resolve("spare-jobs"));
    }

    @Test
    void everyReferenceExampleHasItsKeysAndTypesInOurOutput() throws Exception {
        jobsAndTheirRecords();
        aPassThatFinishesOneJobAndStartsAnother();
        dependenciesAndPriorities();
        lanes();
        theQueueAsAWhole();

        assertEquals(new TreeSet<>(shapes.commandExamples()), new TreeSet<>(checked), "every example is checked");
        assertEquals(List.of(), differences, "where our JSON lacks a key of the reference's, or has another type");
    }

    // ---------------------------------------------------------------- situations

    long prep;
    long bad;
    long pending1;
    long pending2;

    private void jobsAndTheirRecords() throws Exception {
        // Node spare takes no work: its jobs wait (pending) for the priority commands, and it can be ignored.
        check("drain", cli.json("queue", "drain", "spare"));
        JsonNode submitted = cli.json("job", "submit", "--name", "prep", "--gpus", "0", "--env", "FOO=bar", "--tag", "data",
                "--note", "prepare data", "--", "echo hello; echo 'step 1/2' > \"$NVIDB_STATUS_FILE\";"
                        + " echo '{\"acc\": 0.9}' > \"$NVIDB_JOB_DIR/result.json\"");
        check("submit", submitted);
        prep = submitted.path("job").path("id").asLong();
        check("wait", run(0, "job", "wait", id(prep), "--logs", "--timeout", "60"));
        check("job", cli.json("job", "show", id(prep)));
        check("result", cli.json("job", "result", id(prep)));
        check("note-read", cli.json("job", "note", id(prep)));
        check("note-write", cli.json("job", "note", id(prep), "--append", "second"));
    }

    private void aPassThatFinishesOneJobAndStartsAnother() throws Exception {
        bad = submit("--name", "bad", "--gpus", "0", "--", "echo oops >&2; exit 3");
        submit("--name", "train", "--vram", "20G", "--", smi.allocateSnippet(0, 2048) + "; exec sleep 60");
        cli.json("queue", "tick");
        await(() -> Files.exists(tmp.resolve("jobs").resolve(id(bad)).resolve("exit_code")), "job bad's exit");
        submit("--name", "third", "--vram", "1G", "--", "sleep 60");
        check("tick", cli.json("queue", "tick"));
        check("alerts", run(1, "queue", "alerts"));
        JsonNode events = cli.json("queue", "events", "-n", "200");
        ((ObjectNode) events).set("events", only(events.path("events"), e -> e.path("kind").asText().equals("job_started")));
        check("events", events);
        JsonNode nodes = cli.json("queue", "nodes");
        // The example's situation: one node, one card, running a queue job.
        JsonNode box = only(nodes.path("nodes"), n -> n.path("name").asText().equals("box")).get(0);
        ((ObjectNode) box).set("gpus", only(box.path("gpus"), g -> g.path("index").asInt() == 0));
        ((ObjectNode) nodes).set("nodes", Cli.JSON.createArrayNode().add(box));
        check("nodes", nodes);
        check("logs", cli.json("job", "logs", id(bad), "--stderr"));
    }

    private void dependenciesAndPriorities() throws Exception {
        long held = submit("--name", "after-bad", "--gpus", "0", "--after", id(bad), "--", "true");
        cli.json("queue", "tick");
        check("ls", cli.json("job", "ls", "--held"));
        long first = submit("--name", "first", "--gpus", "0", "--", "sleep 60");
        long dependant = submit("--name", "dependant", "--gpus", "0", "--after", id(first), "--", "true");
        check("cancel", run(3, "job", "cancel", id(first), "404"));
        check("release", cli.json("job", "release", id(held)));
        check("edit", cli.json("job", "edit", id(dependant), "--add-after", id(prep)));
        check("requeue", cli.json("job", "requeue", id(bad)));

        pending1 = submit("--name", "q1", "--gpus", "0", "--node", "spare", "--", "true");
        pending2 = submit("--name", "q2", "--gpus", "0", "--node", "spare", "--", "true");
        check("priority-move", cli.json("job", "priority", id(pending2), "--up", "1"));
        check("priority-read", cli.json("job", "priority", id(pending2)));
        check("priority-set", cli.json("job", "priority", id(pending2), "3"));
        check("ignore", cli.json("queue", "ignore", "spare"));
        cli.json("queue", "unignore", "spare");
    }

    private void lanes() throws Exception {
        String lane = "box:1";
        long quick = laneJob(lane, "0.3");
        long longer = laneJob(lane, "60");
        long second = laneJob(lane, "1");
        long third = laneJob(lane, "1");
        JsonNode view = awaitJson(v -> v.path("running").path(0).path("id").asLong() == longer
                        && v.path("runner_state").path("current").size() == 1 && v.path("queued").size() == 2,
                "the runner running job " + longer + " after " + quick, "queue", "lane", lane);
        check("lane", view);
        check("lane-move", cli.json("queue", "lane", lane, "move", id(third), "--to", "1"));
        check("lane-swap", cli.json("queue", "lane", lane, "swap", id(second), id(third)));
        long pool = submit("--name", "pool", "--vram", "1G", "--node", "box", "--", "sleep 1");
        check("lane-assign", cli.json("queue", "lane", lane, "assign", id(pool)));
        check("lane-assign-none", cli.json("queue", "lane", lane, "assign", id(pool), "--none"));
        check("lane-skip", cli.json("queue", "lane", lane, "skip"));
        check("lane-pause", cli.json("queue", "lane", lane, "pause"));
        JsonNode runner = cli.json("queue", "lane", lane, "runner", "status");
        // The example's finished run: a job that exited (a withdrawn one has no exit code).
        ObjectNode state = (ObjectNode) runner.path("state");
        state.set("finished", only(state.path("finished"), f -> f.path("job_id").asLong() == quick));
        check("runner-status", runner);
        check("lane-concurrency", cli.json("queue", "lane", lane, "concurrency", "1"));
        check("lane-resume", cli.json("queue", "lane", lane, "resume"));
        check("runner-off", cli.json("queue", "lane", lane, "runner", "off"));
        check("runner-on", cli.json("queue", "lane", lane, "runner", "on"));
        check("runner-stop", cli.json("queue", "lane", lane, "runner", "stop"));
        check("runner-restart", cli.json("queue", "lane", lane, "runner", "restart"));
        cli.json("job", "cancel", id(longer), id(second), id(third));
        check("lane-skip-none", cli.json("queue", "lane", "box:0", "skip")); // a lane with nothing to skip past
    }

    private void theQueueAsAWhole() throws Exception {
        check("ack", cli.json("queue", "ack", "--all"));
        check("purge", cli.json("job", "purge", "--state", "cancelled"));
        check("backup", cli.json("queue", "backup"));
        configure("  backup:\n    enabled: true\n    interval_hours: 0\n");
        long failing = submit("--name", "fails-again", "--gpus", "0", "--", "exit 4");
        cli.json("queue", "tick");
        await(() -> Files.exists(tmp.resolve("jobs").resolve(id(failing)).resolve("exit_code")), "job " + failing + "'s exit");
        check("daemon", cli.json("queue", "daemon", "--once"));
        configure("");
        check("error", run(3, "job", "show", "404"));

        Path nvidb = tmp.resolve("nvidb");
        Files.writeString(nvidb, "#!/bin/sh\nexec " + String.join(" ", cli.javaCommand().stream().map(Cli::q).toList())
                + " \"$@\"\n");
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwxr-xr-x"));
        check("keeper-install", cli.json("queue", "keeper", "install", "--start", "--nvidb", nvidb.toString(),
                "--interval", "5"));
        check("keeper-status", cli.json("queue", "keeper", "status"));
        check("status", cli.json("queue", "status"));
        check("keeper-action", cli.json("queue", "keeper", "stop"));
    }

    // ---------------------------------------------------------------- helpers

    private void check(String example, JsonNode ours) {
        if (!checked.add(example)) {
            throw new IllegalStateException("example " + example + " checked twice");
        }
        for (String d : shapes.differences(example, ours)) {
            String path = d.substring(0, d.indexOf(':'));
            if (!KEPT.containsKey(path)) {
                differences.add(d);
            }
        }
    }

    private JsonNode run(int exit, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--json");
        Cli.Result r = cli.run(all.toArray(String[]::new));
        assertEquals(exit, r.exit(), r.toString());
        return r.json();
    }

    private long submit(String... args) {
        List<String> all = new ArrayList<>(List.of("job", "submit", "--no-tick"));
        all.addAll(List.of(args));
        return cli.json(all.toArray(String[]::new)).path("job").path("id").asLong();
    }

    private long laneJob(String lane, String seconds) {
        return submit("--lane", lane, "--vram", "1G", "--", "sleep " + seconds);
    }

    private static String id(long id) {
        return String.valueOf(id);
    }

    private static ArrayNode only(JsonNode array, Predicate<JsonNode> keep) {
        ArrayNode out = Cli.JSON.createArrayNode();
        array.forEach(n -> {
            if (keep.test(n)) {
                out.add(n);
            }
        });
        return out;
    }

    private JsonNode awaitJson(Predicate<JsonNode> wanted, String what, String... args) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (true) {
            JsonNode doc = cli.json(args);
            if (wanted.test(doc)) {
                return doc;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what + "; last: " + doc);
            }
            Thread.sleep(200);
        }
    }

    private static void await(LocalJobsTest.Check condition, String what) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (!condition.ok()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }
}
