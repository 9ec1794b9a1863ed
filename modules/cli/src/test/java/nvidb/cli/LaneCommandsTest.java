package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database side of lanes through the real command line: listing, showing, and every way of
 * reordering one. Lane jobs stay queued here (nothing dispatches them yet), which is what the
 * ordering commands are about; a fake nvidia-smi gives the node its GPUs.
 */
class LaneCommandsTest {
    private static final String LANE = "box406:0";

    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi box;
    FakeNvidiaSmi other;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:lanes");
        box = FakeNvidiaSmi.install("box406", tmp.resolve("box406/bin"), tmp.resolve("box406/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        other = FakeNvidiaSmi.install("abox", tmp.resolve("abox/bin"), tmp.resolve("abox/state"))
                .gpu(0, "NVIDIA A100 80GB PCIe", 81920);
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  headroom_mb: 512\n  lane_idle_exit: 5\n"
                + "  lane_spool_root: " + tmp.resolve("spool") + "\nservers:\n" + node("box406", box) + node("abox", other));
    }

    @AfterEach
    void tearDown() throws Exception {
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("box406-jobs"), tmp.resolve("abox-jobs"));
    }

    private String node(String name, FakeNvidiaSmi fake) {
        return "  - nickname: " + name + "\n    transport: local\n    nvidia_smi: " + fake.command() + "\n    job_root: "
                + tmp.resolve(name + "-jobs") + "\n";
    }

    /** A job queued in {@code lane} (no pass afterwards). */
    private long laneJob(String lane, String name) {
        return cli.json("job", "submit", "--lane", lane, "--gpus", "1", "--vram", "1G", "-n", name, "--no-tick",
                "--", "sleep 30").path("job").path("id").asLong();
    }

    private List<Long> queued(String lane) {
        List<Long> ids = new ArrayList<>();
        cli.json("queue", "lane", lane, "--no-tick").path("queued").forEach(j -> ids.add(j.path("id").asLong()));
        return ids;
    }

    private JsonNode lastEvent(String kind) {
        JsonNode last = null;
        for (JsonNode e : cli.json("queue", "events", "-n", "200").path("events")) {
            if (e.path("kind").asText().equals(kind)) {
                last = e;
            }
        }
        if (last == null) {
            throw new AssertionError("no " + kind + " event");
        }
        return last;
    }

    private Cli.Result fails(int exit, String... args) {
        Cli.Result r = cli.run(args);
        assertEquals(exit, r.exit(), r.toString());
        return r;
    }

    @Test
    void moveSwapAndSkipRewriteTheLaneOrder() {
        long a = laneJob(LANE, "a");
        long b = laneJob(LANE, "b");
        long c = laneJob(LANE, "c");
        long d = laneJob(LANE, "d");
        assertEquals(List.of(a, b, c, d), queued(LANE));

        JsonNode moved = cli.json("queue", "lane", LANE, "move", String.valueOf(d), "--to", "head");
        assertTrue(moved.path("ok").asBoolean());
        assertEquals(d, moved.path("id").asLong());
        assertEquals(LANE, moved.path("lane").asText());
        assertEquals(1, moved.path("position").asInt());
        assertEquals(List.of(d, a, b, c), queued(LANE));
        JsonNode event = lastEvent("lane_reordered");
        assertEquals(d, event.path("job_id").asLong());
        assertEquals("box406", event.path("node").asText());
        assertEquals(LANE + ": moved to slot 1", event.path("message").asText());

        assertEquals(3, cli.json("queue", "lane", LANE, "move", String.valueOf(d), "--to", "3").path("position").asInt());
        assertEquals(List.of(a, b, d, c), queued(LANE));
        assertEquals(4, cli.json("queue", "lane", LANE, "move", String.valueOf(a), "--to", "TAIL").path("position").asInt());
        assertEquals(List.of(b, d, c, a), queued(LANE));
        // Out of range clamps to the end.
        assertEquals(4, cli.json("queue", "lane", LANE, "move", String.valueOf(b), "--to", "99").path("position").asInt());
        assertEquals(List.of(d, c, a, b), queued(LANE));

        assertEquals(1, cli.json("queue", "lane", LANE, "move", String.valueOf(a), "--before", String.valueOf(d))
                .path("position").asInt());
        assertEquals(List.of(a, d, c, b), queued(LANE));
        assertEquals(4, cli.json("queue", "lane", LANE, "move", String.valueOf(d), "--after", String.valueOf(b))
                .path("position").asInt());
        assertEquals(List.of(a, c, b, d), queued(LANE));

        // lane_seq is the schedule: strictly increasing in running order, 1000 apart.
        JsonNode lane = cli.json("queue", "lane", LANE, "--no-tick");
        long prev = 0;
        for (JsonNode j : lane.path("queued")) {
            assertEquals(prev + 1000, j.path("lane_seq").asLong());
            prev = j.path("lane_seq").asLong();
        }

        JsonNode swapped = cli.json("queue", "lane", LANE, "swap", String.valueOf(a), String.valueOf(d));
        assertEquals("[" + d + "," + c + "," + b + "," + a + "]", swapped.path("order").toString());
        assertEquals(List.of(d, c, b, a), queued(LANE));
        assertEquals(LANE + ": swapped with job " + d, lastEvent("lane_reordered").path("message").asText());

        JsonNode skipped = cli.json("queue", "lane", LANE, "skip", "--no-tick");
        assertEquals(d, skipped.path("skipped").asLong());
        assertEquals("[" + c + "," + b + "," + a + "," + d + "]", skipped.path("order").toString());
        assertEquals("disabled", skipped.path("tick").path("skipped").asText());
        assertEquals(List.of(c, b, a, d), queued(LANE));
        assertEquals(LANE + ": skipped to the back", lastEvent("lane_reordered").path("message").asText());

        Cli.Result human = cli.run("queue", "lane", LANE, "move", String.valueOf(a), "--to", "1");
        assertEquals(0, human.exit(), human.toString());
        assertEquals("job " + a + " is now #1 in " + LANE + "\n", human.out());
        Cli.Result show = cli.run("queue", "lane", LANE, "--no-tick");
        assertTrue(show.out().startsWith("LANE " + LANE + "  ["), show.out());
        assertTrue(show.out().contains("QUEUED (in order)"), show.out());
        assertTrue(show.out().contains("  #  ID"), show.out());
    }

    @Test
    void skippingALaneWithOneJobChangesNothing() {
        long a = laneJob(LANE, "only");
        JsonNode r = cli.json("queue", "lane", LANE, "skip", "--no-tick");
        assertTrue(r.path("skipped").isNull());
        assertEquals(List.of(a), queued(LANE));
        assertEquals("lane " + LANE + " has nothing to skip past\n", cli.run("queue", "lane", LANE, "skip", "--no-tick").out());
    }

    @Test
    void assignPutsAJobIntoTheLaneNamedAndNoneTakesItOutWithItsPin() {
        long a = laneJob(LANE, "a");
        long b = laneJob(LANE, "b");
        long free = cli.json("job", "submit", "--gpus", "1", "--vram", "1G", "--no-tick", "--", "sleep 30")
                .path("job").path("id").asLong();

        JsonNode r = cli.json("queue", "lane", LANE, "assign", String.valueOf(free), "--at", "head", "--no-tick");
        assertEquals(free, r.path("id").asLong());
        assertEquals(LANE, r.path("lane").asText());
        assertTrue(r.path("previous").isNull());
        assertEquals(1, r.path("position").asInt());
        assertEquals("disabled", r.path("tick").path("skipped").asText());
        assertEquals(List.of(free, a, b), queued(LANE));
        JsonNode job = cli.json("job", "show", String.valueOf(free), "--no-tick");
        assertEquals(LANE, job.path("lane").asText());
        assertEquals("box406", job.path("node_constraint").asText());
        assertEquals("- -> " + LANE, lastEvent("lane_assigned").path("message").asText());

        // Into another lane: the tail by default.
        long c = laneJob("box406:1", "c");
        JsonNode moved = cli.json("queue", "lane", "box406:1", "assign", String.valueOf(free), "--no-tick");
        assertEquals(LANE, moved.path("previous").asText());
        assertEquals(2, moved.path("position").asInt());
        assertEquals(List.of(c, free), queued("box406:1"));
        assertEquals(List.of(a, b), queued(LANE));

        // --none acts on the lane named: the job is not in box406:0.
        Cli.Result wrong = fails(4, "queue", "lane", LANE, "assign", String.valueOf(free), "--none", "--no-tick");
        assertTrue(wrong.err().contains("not queued in lane '" + LANE + "'"), wrong.err());

        JsonNode out = cli.json("queue", "lane", "box406:1", "assign", String.valueOf(free), "--none", "--no-tick");
        assertTrue(out.path("lane").isNull());
        assertEquals("box406:1", out.path("previous").asText());
        job = cli.json("job", "show", String.valueOf(free), "--no-tick");
        assertTrue(job.path("lane").isNull());
        assertTrue(job.path("lane_seq").isNull());
        assertTrue(job.path("node_constraint").isNull(), "decisions.md §8: --none clears the pin");
        assertEquals("removed from lane box406:1", lastEvent("lane_assigned").path("message").asText());

        // A job needing more GPUs than the lane has is refused.
        long wide = cli.json("job", "submit", "--gpus", "2", "--no-tick", "--", "true").path("job").path("id").asLong();
        Cli.Result tooWide = fails(4, "queue", "lane", LANE, "assign", String.valueOf(wide), "--no-tick");
        assertTrue(tooWide.err().contains("needs 2 GPUs"), tooWide.err());
    }

    @Test
    void pauseAndResumeAreRecordedAndShowAsBlocked() {
        laneJob(LANE, "a");
        JsonNode paused = cli.json("queue", "lane", LANE, "pause");
        assertTrue(paused.path("ok").asBoolean());
        assertEquals(LANE, paused.path("lane").path("name").asText());
        assertTrue(paused.path("lane").path("paused").asBoolean());
        assertEquals("{\"ran\":false,\"skipped\":\"not_needed\"}", paused.path("tick").toString(),
                "nothing was staged with a runner, so no pass was needed");
        List<String> keys = new ArrayList<>();
        paused.path("lane").fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("name", "node", "gpu_ids", "paused", "concurrency", "runner", "runner_up", "runner_state",
                "runner_seen_at", "created_at", "updated_at"), keys);
        JsonNode event = lastEvent("lane_paused");
        assertEquals(LANE, event.path("message").asText());
        assertEquals("box406", event.path("node").asText());

        JsonNode view = cli.json("queue", "lane", LANE, "--no-tick");
        assertEquals("paused", view.path("blocked").asText());
        assertTrue(cli.run("queue", "lane", LANE, "--no-tick").out().contains("  blocked: paused"));

        JsonNode resumed = cli.json("queue", "lane", LANE, "resume", "--no-tick");
        assertFalse(resumed.path("lane").path("paused").asBoolean());
        assertEquals("disabled", resumed.path("tick").path("skipped").asText());
        assertEquals(LANE, lastEvent("lane_resumed").path("message").asText());
        assertEquals("lane " + LANE + " resumed\n", cli.run("queue", "lane", LANE, "resume", "--no-tick").out());
    }

    @Test
    void lanesListEveryGpuInNodeOrderAndFilterByNode() {
        long a = laneJob(LANE, "first");
        long b = laneJob(LANE, "second");
        cli.json("queue", "tick");
        JsonNode lanes = cli.json("queue", "lanes", "--no-tick").path("lanes");
        List<String> names = new ArrayList<>();
        lanes.forEach(l -> names.add(l.path("name").asText()));
        assertEquals(List.of("box406:0", "box406:1", "abox:0"), names, "config order, then GPU index");
        JsonNode first = lanes.path(0);
        List<String> keys = new ArrayList<>();
        first.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("name", "node", "gpu_ids", "paused", "concurrency", "runner", "runner_up", "runner_state",
                "runner_seen_at", "created_at", "updated_at", "node_state", "running", "queued", "blocked"), keys);
        assertEquals("up", first.path("node_state").asText());
        assertTrue(first.path("runner_up").asBoolean(), "the tick started the lane's runner: " + first);
        assertTrue(first.path("blocked").isNull(), first.toString());
        // The lane runs one job at a time, in order: whatever started is its head; the rest wait behind it.
        List<Long> order = new ArrayList<>();
        first.path("running").forEach(j -> order.add(j.path("id").asLong()));
        first.path("queued").forEach(j -> order.add(j.path("id").asLong()));
        assertEquals(List.of(a, b), order, first.toString());
        assertTrue(first.path("running").size() <= 1, first.toString());
        if (first.path("running").size() == 1) {
            Cli.Result refused = fails(4, "queue", "lane", LANE, "move", String.valueOf(a), "--to", "tail");
            assertTrue(refused.err().contains("job " + a + " is running; a running job cannot be moved"), refused.err());
            Cli.Result swap = fails(4, "queue", "lane", LANE, "swap", String.valueOf(a), String.valueOf(b));
            assertTrue(swap.err().contains("running"), swap.err());
        }

        JsonNode only = cli.json("queue", "lanes", "--node", "ABO", "--no-tick").path("lanes");
        assertEquals(1, only.size());
        assertEquals("abox:0", only.path(0).path("name").asText());
        Cli.Result unknown = fails(3, "queue", "lanes", "--node", "nope", "--no-tick");
        assertTrue(unknown.err().contains("unknown node 'nope'"), unknown.err());

        String table = cli.run("queue", "lanes", "--no-tick").out();
        assertEquals(List.of("LANE", "STATE", "RUNNER", "RUN", "QUEUED", "NOW", "NEXT", "BLOCKED"),
                List.of(table.lines().findFirst().orElseThrow().split("\\s+")), table);
        assertTrue(table.contains("first") && table.contains(b + " second"), table);

        // A prefix names a lane; a drained node blocks its lanes.
        assertEquals("abox:0", cli.json("queue", "lane", "abo", "--no-tick").path("name").asText());
        assertEquals("box406:0,1", cli.json("queue", "lane", "box406:1,0", "--no-tick").path("name").asText());
        assertEquals("box406:1", cli.json("queue", "lane", "box406:1", "--no-tick").path("name").asText(),
                "a full lane name is never completed to another lane");
        assertEquals("box406:1", cli.json("queue", "lane", "box4:1", "--no-tick").path("name").asText(),
                "a node prefix is completed");
        cli.json("queue", "drain", "box406");
        assertEquals("node box406 is drained", cli.json("queue", "lane", LANE, "--no-tick").path("blocked").asText());
        cli.json("job", "cancel", String.valueOf(a), String.valueOf(b));
    }

    @Test
    void aCardFullOfForeignMemoryOrAHeldHeadBlocksTheLane() {
        box.foreignProcess(424242, 0, 20000, "someone-elses-training");
        long big = cli.json("job", "submit", "--lane", LANE, "--gpus", "1", "--vram", "8G", "--no-tick", "--", "true")
                .path("job").path("id").asLong();
        JsonNode view = cli.json("queue", "lane", LANE, "--tick");
        assertTrue(view.path("blocked").asText().startsWith("card full: 20000 MiB of box406 GPU 0"), view.toString());
        assertTrue(view.path("blocked").asText().contains("job " + big + " needs 8192 MiB"), view.toString());
        assertEquals("pending", view.path("queued").path(0).path("state").asText());

        // A held head stops the lane before the card is even considered.
        long dep = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();
        cli.json("job", "cancel", String.valueOf(dep));
        long held = cli.json("job", "submit", "--lane", LANE, "--gpus", "1", "--after", String.valueOf(dep), "--at", "head",
                "--no-tick", "--", "true").path("job").path("id").asLong();
        view = cli.json("queue", "lane", LANE, "--tick");
        assertEquals(held, view.path("queued").path(0).path("id").asLong());
        assertTrue(view.path("blocked").asText().startsWith("job " + held + " is held: "), view.toString());
        // skip is the sanctioned way past a held head.
        cli.json("queue", "lane", LANE, "skip", "--no-tick");
        assertEquals(List.of(big, held), queued(LANE));
    }

    @Test
    void aRunningJobCannotBeReorderedOrAssigned() {
        JsonNode running = cli.json("job", "submit", "--gpus", "1", "--vram", "1G", "--node", "box406", "--", "sleep 30")
                .path("job");
        assertEquals("running", running.path("state").asText(), running.toString());
        String id = running.path("id").asText();
        try {
            Cli.Result assign = fails(4, "queue", "lane", LANE, "assign", id, "--no-tick");
            assertTrue(assign.err().contains("job " + id + " is running"), assign.err());
            Cli.Result move = fails(4, "queue", "lane", LANE, "move", id, "--to", "head", "--json");
            assertEquals("conflict", move.json().path("code").asText());
            assertTrue(move.json().path("error").asText().contains("running"), move.out());
        } finally {
            cli.json("job", "cancel", id);
        }
    }

    @Test
    void unknownNamesAndBadValuesHaveTheirExitCodes() {
        long a = laneJob(LANE, "a");
        long other = laneJob("box406:1", "elsewhere");
        long loose = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();

        assertTrue(fails(3, "queue", "lane", "nosuch", "--no-tick").err().contains("unknown lane 'nosuch'"));
        assertTrue(fails(3, "queue", "lane", "nope:0", "--no-tick").err().contains("unknown node"));
        fails(64, "queue", "lane", "box406:x", "--no-tick");
        Cli.Result ambiguous = fails(64, "queue", "lane", "box406", "--no-tick");
        assertTrue(ambiguous.err().contains("ambiguous"), ambiguous.err());

        assertTrue(fails(3, "queue", "lane", LANE, "move", "999", "--to", "head").err().contains("job 999 not found"));
        Cli.Result notHere = fails(4, "queue", "lane", LANE, "move", String.valueOf(other), "--to", "head");
        assertTrue(notHere.err().contains("is in lane 'box406:1'"), notHere.err());
        Cli.Result noLane = fails(4, "queue", "lane", LANE, "move", String.valueOf(loose), "--to", "head");
        assertTrue(noLane.err().contains("assign " + loose), noLane.err());
        fails(4, "queue", "lane", LANE, "swap", String.valueOf(a), String.valueOf(other));
        fails(3, "queue", "lane", LANE, "move", String.valueOf(a), "--before", "999");

        fails(64, "queue", "lane", LANE, "move", String.valueOf(a));
        fails(64, "queue", "lane", LANE, "move", String.valueOf(a), "--to", "head", "--before", String.valueOf(a));
        fails(64, "queue", "lane", LANE, "move", String.valueOf(a), "--to", "sideways");
        fails(64, "queue", "lane", LANE, "move", String.valueOf(a), "--to", "0");
        fails(64, "queue", "lane", LANE, "move", String.valueOf(a), "--after", String.valueOf(a));
        fails(64, "queue", "lane", LANE, "move", "x1", "--to", "head");
        fails(64, "queue", "lane", LANE, "swap", String.valueOf(a), String.valueOf(a));
        fails(64, "queue", "lane", LANE, "assign", String.valueOf(a), "--none", "--at", "head");

        // A finished job is no longer queued anywhere.
        cli.json("job", "cancel", String.valueOf(a));
        Cli.Result done = fails(4, "queue", "lane", LANE, "move", String.valueOf(a), "--to", "head");
        assertTrue(done.err().contains("cancelled"), done.err());
    }

    @Test
    void aLaneWhoseRunnerHasNotStartedSaysSo() {
        cli.json("queue", "tick"); // the node is up; the job below is queued without a pass
        laneJob(LANE, "a");
        Cli.Result status = fails(1, "queue", "lane", LANE, "runner", "--json", "--no-tick");
        JsonNode r = status.json();
        assertEquals(LANE, r.path("lane").asText());
        assertTrue(r.path("enabled").asBoolean());
        assertFalse(r.path("up").asBoolean());
        assertTrue(r.path("state").isNull());
        assertEquals("waiting for a runner on the node", r.path("blocked").asText(), r.toString());
        fails(64, "queue", "lane", LANE, "runner", "sideways");
    }
}
