package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every job-record command through the real command line, against a real SQLite file. */
class JobRecordCommandsTest {
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:records");
        // No node at all: jobs stay records, which is what these commands are about.
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
    }

    private long submit(String... args) {
        List<String> all = new ArrayList<>(List.of("job", "submit", "--gpus", "0"));
        all.addAll(List.of(args));
        if (!all.contains("--")) {
            all.add("--");
            all.add("true");
        }
        return cli.json(all.toArray(String[]::new)).path("job").path("id").asLong();
    }

    @Test
    void submitRecordsEveryOptionAndTheJsonHasTheReferenceKeysInOrder() {
        JsonNode r = cli.json("job", "submit", "--name", "train", "--vram", "1.5G", "--gpus", "2", "--note", "why",
                "--timeout", "60", "--retries", "2", "--workdir", "~/work", "--env", "A=1", "--env", "B=x=y",
                "--priority", "3", "--tag", "t1", "--tag", "t2", "--", "python", "train.py", "--epochs", "10");
        assertTrue(r.path("ok").asBoolean());
        assertFalse(r.path("duplicate").asBoolean());
        JsonNode job = r.path("job");
        List<String> keys = new ArrayList<>();
        job.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("id", "name", "state", "command", "workdir", "env", "priority", "gpus", "vram_mb",
                "node_constraint", "depends_on", "depends_any", "max_runtime_s", "submitter", "tags", "created_at",
                "started_at", "finished_at", "elapsed_s", "node", "gpu_ids", "lane", "lane_seq", "remote_pid", "run_dir",
                "exit_code", "attempt", "max_retries", "last_error", "heartbeat_at", "gpu_mem_mb", "result", "notes",
                "progress", "progress_at", "held_reason", "held"), keys.subList(0, 37));
        // Extra keys after the reference's 37: what the queue measured and learned (issue 33).
        assertEquals(List.of("peak_vram_mb", "mean_util_percent", "vram_source", "failure", "user",
                "wait_reason"),
                keys.subList(37, keys.size()));
        assertEquals("explicit", job.path("vram_source").path("kind").asText());
        assertEquals("train", job.path("name").asText());
        assertEquals("pending", job.path("state").asText());
        assertEquals("python train.py --epochs 10", job.path("command").asText());
        assertEquals(tmp.resolve("work").toString(), job.path("workdir").asText());
        assertEquals("1", job.path("env").path("A").asText());
        assertEquals("x=y", job.path("env").path("B").asText());
        assertEquals(3, job.path("priority").asInt());
        assertEquals(2, job.path("gpus").asInt());
        assertEquals(1536, job.path("vram_mb").asInt());
        assertEquals(60, job.path("max_runtime_s").asInt());
        assertEquals(2, job.path("max_retries").asInt());
        assertEquals("test:records", job.path("submitter").asText());
        assertEquals("[\"t1\",\"t2\"]", job.path("tags").toString());
        assertEquals("why", job.path("notes").asText());
        assertTrue(job.path("created_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\+00:00"));
        assertTrue(r.path("tick").path("ran").asBoolean());
    }

    @Test
    void oneQuotedStringIsKeptVerbatimAndScriptFilesBecomeTheCommand() throws Exception {
        JsonNode one = cli.json("job", "submit", "--gpus", "0", "echo $HOME && ls | wc -l");
        assertEquals("echo $HOME && ls | wc -l", one.path("job").path("command").asText());
        JsonNode several = cli.json("job", "submit", "--gpus", "0", "--", "echo", "it's", "$(x)");
        assertEquals("echo 'it'\"'\"'s' '$(x)'", several.path("job").path("command").asText());
        Path script = tmp.resolve("run.sh");
        Files.writeString(script, "#!/bin/sh\necho line1\necho line2\n");
        JsonNode fromFile = cli.json("job", "submit", "--gpus", "0", "--script", script.toString());
        assertEquals("#!/bin/sh\necho line1\necho line2\n", fromFile.path("job").path("command").asText());
    }

    @Test
    void humanOutputSaysWhatHappened() {
        Cli.Result r = cli.run("job", "submit", "--gpus", "0", "--name", "hello", "--", "true");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().startsWith("submitted job 1 (pending)"), r.out());
        Cli.Result ls = cli.run("job", "ls");
        assertTrue(ls.out().lines().findFirst().orElse("").startsWith("ID  STATE"), ls.out());
        assertTrue(ls.out().contains("hello"), ls.out());
        Cli.Result show = cli.run("job", "show", "1");
        assertTrue(show.out().startsWith("JOB 1  pending"), show.out());
        assertTrue(show.out().contains("submitter   test:records"), show.out());
    }

    @Test
    void lsListsNewestFirstAndFilters() {
        long a = submit("--tag", "data");
        long b = submit("--tag", "train");
        long c = submit("--tag", "data");
        cli.json("job", "cancel", String.valueOf(b));
        assertEquals(List.of(c, b, a), ids(cli.json("job", "ls", "--no-tick")));
        assertEquals(List.of(c, a), ids(cli.json("job", "ls", "--active")));
        assertEquals(List.of(b), ids(cli.json("job", "ls", "--state", "cancelled")));
        assertEquals(List.of(c, a), ids(cli.json("job", "ls", "--tag", "data")));
        JsonNode limited = cli.json("job", "ls", "-n", "2");
        assertEquals(List.of(c, b), ids(limited));
        assertTrue(limited.path("truncated").asBoolean());
        assertEquals(List.of(c, b, a), ids(cli.json("job", "ls", "-n", "0")));
    }

    @Test
    void showIncludesEvents() {
        long id = submit("--name", "x");
        JsonNode show = cli.json("job", "show", String.valueOf(id));
        assertEquals(id, show.path("id").asLong());
        assertEquals("job_submitted", show.path("events").path(0).path("kind").asText());
    }

    @Test
    void noteReadReplaceAppendClear() {
        long id = submit("--note", "first");
        String s = String.valueOf(id);
        assertEquals("first", cli.json("job", "note", s).path("notes").asText());
        assertEquals("first | second", cli.json("job", "note", s, "--append", "second").path("notes").asText());
        assertEquals("new text here", cli.json("job", "note", s, "new", "text", "here").path("notes").asText());
        assertTrue(cli.json("job", "note", s, "--clear").path("notes").isNull());
        assertEquals("(no note)\n", cli.run("job", "note", s).out());
        Cli.Result both = cli.run("job", "note", s, "x", "--clear");
        assertEquals(64, both.exit(), both.toString());
        assertTrue(both.err().contains("pick one of text, --append, --clear"), both.err());
    }

    @Test
    void prioritySetsAdjustsAndMoves() {
        long a = submit();
        long b = submit();
        long c = submit();
        String sa = String.valueOf(a);
        assertEquals(5, cli.json("job", "priority", sa, "5").path("priority").asInt());
        assertEquals(6, cli.json("job", "priority", sa, "+1").path("priority").asInt());
        assertEquals(4, cli.json("job", "priority", sa, "-2").path("priority").asInt());
        assertEquals(4, cli.json("job", "priority", sa).path("priority").asInt());
        cli.json("job", "priority", sa, "0");
        // dispatch order is a, b, c; moving c up two slots puts it first without raising anything.
        JsonNode moved = cli.json("job", "priority", String.valueOf(c), "--up", "2");
        assertTrue(moved.path("moved").asBoolean());
        assertEquals(1, moved.path("slot").asInt());
        int pa = cli.json("job", "priority", sa).path("priority").asInt();
        int pb = cli.json("job", "priority", String.valueOf(b)).path("priority").asInt();
        int pc = cli.json("job", "priority", String.valueOf(c)).path("priority").asInt();
        assertTrue(pc > pa && pa >= pb, "c=" + pc + " a=" + pa + " b=" + pb);
        assertTrue(pc <= 0, "priorities never rise: c=" + pc);
        Cli.Result bad = cli.run("job", "priority", sa, "x");
        assertEquals(64, bad.exit());
        assertTrue(bad.err().contains("invalid priority 'x' (use 5, +1, or -2)"), bad.err());
        cli.json("job", "cancel", sa);
        Cli.Result finished = cli.run("job", "priority", sa, "3");
        assertEquals(4, finished.exit(), finished.toString());
    }

    @Test
    void aFailedDependencyHoldsAndReleaseOrEditLiftsIt() {
        long a = submit("--name", "a");
        long b = submit("--name", "b");
        long dependent = submit("--after", a + "," + b, "--note", "keep me");
        Cli.Result cancel = cli.run("job", "cancel", String.valueOf(b));
        assertTrue(cancel.out().contains("were waiting for it and are now held"), cancel.out());
        cli.json("queue", "tick");
        JsonNode held = cli.json("job", "show", String.valueOf(dependent), "--no-tick");
        assertEquals("pending", held.path("state").asText());
        assertTrue(held.path("held").asBoolean());
        assertEquals("dependency " + b + " ended as cancelled", held.path("held_reason").asText());
        assertEquals(List.of(dependent), ids(cli.json("job", "ls", "--held")));
        JsonNode alerts = cli.run("queue", "alerts", "--json", "--no-tick").json();
        assertEquals("job_held", alerts.path("alerts").path(0).path("kind").asText());
        assertEquals(1, cli.run("queue", "alerts", "--no-tick").exit());

        JsonNode edited = cli.json("job", "edit", String.valueOf(dependent), "--drop-after", String.valueOf(b));
        assertFalse(edited.path("job").path("held").asBoolean());
        assertEquals("[" + a + "]", edited.path("job").path("depends_on").toString());

        cli.json("job", "edit", String.valueOf(dependent), "--add-after", String.valueOf(b));
        cli.json("queue", "tick");
        assertTrue(cli.json("job", "show", String.valueOf(dependent)).path("held").asBoolean());
        JsonNode released = cli.json("job", "release", String.valueOf(dependent));
        assertTrue(released.path("results").path(0).path("released").asBoolean());
        assertEquals("[" + b + "]", released.path("results").path(0).path("dropped").toString());
        JsonNode after = cli.json("job", "show", String.valueOf(dependent));
        assertFalse(after.path("held").asBoolean());
        assertEquals("keep me", after.path("notes").asText());
        assertEquals("[" + a + "]", after.path("depends_on").toString());
    }

    @Test
    void heldWhateverTheOrderOfTheList() {
        long running = submit();
        long dead = submit();
        long dependent = submit("--after", running + "," + dead);
        cli.json("job", "cancel", String.valueOf(dead));
        cli.json("queue", "tick");
        assertTrue(cli.json("job", "show", String.valueOf(dependent)).path("held").asBoolean());
    }

    @Test
    void editRefusesCyclesAndSelfAndUnknownJobs() {
        long a = submit();
        long b = submit("--after", String.valueOf(a));
        Cli.Result cycle = cli.run("job", "edit", String.valueOf(a), "--add-after", String.valueOf(b));
        assertEquals(4, cycle.exit(), cycle.toString());
        assertTrue(cycle.err().contains("would deadlock"), cycle.err());
        assertEquals(64, cli.run("job", "edit", String.valueOf(a), "--add-after", String.valueOf(a)).exit());
        assertEquals(3, cli.run("job", "edit", String.valueOf(a), "--add-after", "999").exit());
        assertEquals(64, cli.run("job", "edit", String.valueOf(a)).exit());
    }

    @Test
    void cancelRequeueAndPurge() {
        long a = submit();
        long keep = submit();
        long dependent = submit("--after", String.valueOf(keep));
        JsonNode c = cli.json("job", "cancel", a + "," + keep);
        assertTrue(c.path("results").path(0).path("cancelled").asBoolean());
        assertEquals("[" + dependent + "]", c.path("results").path(1).path("holds").toString());
        Cli.Result again = cli.run("job", "cancel", "--json", String.valueOf(a));
        assertEquals(4, again.exit(), again.toString());
        assertFalse(again.json().path("ok").asBoolean());
        assertEquals("conflict", again.json().path("code").asText());
        assertEquals(3, cli.run("job", "cancel", "404").exit());

        JsonNode rq = cli.json("job", "requeue", String.valueOf(a));
        assertTrue(rq.path("results").path(0).path("requeued").asBoolean());
        assertEquals("pending", cli.json("job", "show", String.valueOf(a)).path("state").asText());
        assertEquals(4, cli.run("job", "requeue", String.valueOf(a)).exit());

        // keep is cancelled but a pending job still depends on it, so purge leaves it.
        assertEquals(0, cli.json("job", "purge").path("removed").asInt());
        cli.json("job", "cancel", String.valueOf(dependent));
        assertEquals(2, cli.json("job", "purge", "--state", "cancelled").path("removed").asInt());
        assertEquals(List.of(a), ids(cli.json("job", "ls", "-n", "0")));
        assertEquals(64, cli.run("job", "purge", "--state", "pending").exit());
        assertEquals("removed 0 finished job record(s)\n", cli.run("job", "purge").out());

        // One event records the purge that removed something, with the ids; the one that removed nothing none.
        JsonNode events = cli.json("queue", "events").path("events");
        List<JsonNode> purges = new ArrayList<>();
        events.forEach(e -> {
            if (e.path("kind").asText().equals("job_purged")) {
                purges.add(e);
            }
        });
        assertEquals(1, purges.size(), events.toString());
        JsonNode purge = purges.getFirst();
        assertTrue(purge.path("job_id").isNull(), purge.toString());
        assertEquals("removed 2 finished job record(s)", purge.path("message").asText());
        assertEquals("{\"count\":2,\"ids\":[" + keep + "," + dependent + "],\"states\":[\"cancelled\"]}",
                purge.path("data").toString());
        assertEquals(events.get(events.size() - 1), purge, "the newest event");
    }

    /**
     * Commands taking several ids act on every one they can, report each id in one document, and
     * exit with the worst outcome: not found (3) over conflict (4) over success (0).
     */
    @Test
    void severalIdsActOnEveryOneThatCanAndExitWithTheWorstOutcome() {
        long a = submit();
        long b = submit();
        Cli.Result cancel = cli.run("job", "cancel", "--json", String.valueOf(a), String.valueOf(b), "9999");
        assertEquals(3, cancel.exit(), cancel.toString());
        JsonNode doc = cancel.json();
        assertFalse(doc.path("ok").asBoolean(true));
        assertEquals("not_found", doc.path("code").asText());
        assertEquals(3, doc.path("results").size());
        for (int i = 0; i < 2; i++) {
            JsonNode r = doc.path("results").path(i);
            assertTrue(r.path("ok").asBoolean(), r.toString());
            assertTrue(r.path("cancelled").asBoolean(), r.toString());
            assertEquals("cancelled", r.path("state").asText());
            assertFalse(r.has("error"), r.toString());
        }
        JsonNode missing = doc.path("results").path(2);
        assertEquals(9999, missing.path("id").asLong());
        assertFalse(missing.path("ok").asBoolean(true));
        assertEquals("not_found", missing.path("code").asText());
        assertEquals("job 9999 not found", missing.path("error").asText());
        assertEquals("cancelled", cli.json("job", "show", String.valueOf(b)).path("state").asText());

        long c = submit();
        Cli.Result conflict = cli.run("job", "cancel", "--json", String.valueOf(a), String.valueOf(c));
        assertEquals(4, conflict.exit(), conflict.toString());
        assertEquals("conflict", conflict.json().path("results").path(0).path("code").asText());
        assertTrue(conflict.json().path("results").path(1).path("ok").asBoolean(), conflict.out());

        Cli.Result requeue = cli.run("job", "requeue", "--json", "9999", String.valueOf(a), String.valueOf(b));
        assertEquals(3, requeue.exit(), requeue.toString());
        assertEquals("pending", requeue.json().path("results").path(1).path("state").asText());
        assertTrue(requeue.json().path("results").path(2).path("requeued").asBoolean(), requeue.out());
        assertEquals("pending", cli.json("job", "show", String.valueOf(b)).path("state").asText());

        long dead = submit();
        long held = submit("--after", String.valueOf(dead));
        cli.json("job", "cancel", String.valueOf(dead));
        cli.json("queue", "tick");
        Cli.Result release = cli.run("job", "release", "--json", String.valueOf(held), "9999");
        assertEquals(3, release.exit(), release.toString());
        JsonNode released = release.json().path("results");
        assertTrue(released.path(0).path("released").asBoolean(), release.out());
        assertTrue(released.path(0).path("ok").asBoolean(), release.out());
        assertEquals("not_found", released.path(1).path("code").asText(), release.out());
        assertFalse(cli.json("job", "show", String.valueOf(held)).path("held").asBoolean());
        Cli.Result again = cli.run("job", "release", String.valueOf(held));
        assertEquals(4, again.exit(), again.toString());
        assertTrue(again.err().contains("is not held"), again.toString());
    }

    @Test
    void resultTakesAnyJsonValueAndStringsRoundTrip() {
        long id = submit();
        String s = String.valueOf(id);
        assertTrue(cli.json("job", "result", s).path("result").isNull());
        assertEquals("(no result)\n", cli.run("job", "result", s).out());
        assertEquals(1e-4, cli.json("job", "result", s, "--set", "{\"chosen_lr\": 1e-4}").path("result").path("chosen_lr").asDouble());
        assertEquals("a string", cli.json("job", "result", s, "--set", "\"a string\"").path("result").asText());
        assertEquals("a string", cli.json("job", "result", s).path("result").asText());
        assertEquals(42, cli.json("job", "result", s, "--set", "42").path("result").asInt());
        assertEquals("[1,2]", cli.json("job", "result", s, "--set", "[1, 2]").path("result").toString());
    }

    @Test
    void eventsPageWithSinceAndAlertsAck() {
        long a = submit();
        long b = submit("--after", String.valueOf(a));
        cli.json("job", "cancel", String.valueOf(a));
        cli.json("queue", "tick");
        JsonNode all = cli.json("queue", "events");
        long last = all.path("last_id").asLong();
        assertTrue(last >= 4, all.toString());
        JsonNode since = cli.json("queue", "events", "--since", String.valueOf(last - 1));
        assertEquals(1, since.path("events").size());
        assertEquals(last, since.path("last_id").asLong());
        JsonNode none = cli.json("queue", "events", "--since", String.valueOf(last));
        assertEquals(0, none.path("events").size());
        assertEquals(last, none.path("last_id").asLong());
        assertEquals(1, cli.json("queue", "events", "--job", String.valueOf(b)).path("events").size() >= 1 ? 1 : 0);

        JsonNode alerts = cli.run("queue", "alerts", "--json").json();
        assertEquals(1, alerts.path("open").asInt());
        long alertId = alerts.path("alerts").path(0).path("id").asLong();
        assertEquals(3, cli.run("queue", "ack", "999").exit());
        Cli.Result partly = cli.run("queue", "ack", String.valueOf(alertId), "999", "--json");
        assertEquals(3, partly.exit(), "an unknown id is reported: " + partly);
        assertEquals(1, partly.json().path("acknowledged").asInt(), "and the known one is acknowledged anyway");
        assertEquals("not_found", partly.json().path("results").path(1).path("code").asText());
        assertEquals(0, cli.json("queue", "ack", String.valueOf(alertId)).path("acknowledged").asInt(),
                "an alert already acknowledged is not counted again");
        assertEquals(0, cli.run("queue", "alerts").exit());
        assertEquals("no open alerts\n", cli.run("queue", "alerts").out());
        assertEquals(1, cli.json("queue", "alerts", "--all").path("alerts").size());
    }

    /** A queue with no events yet: one document with an empty list, and 0 to continue from. */
    @Test
    void eventsOfAnEmptyQueueAreAnEmptyList() {
        Cli.Result r = cli.run("queue", "events", "--json");
        assertEquals(0, r.exit(), r.toString());
        assertEquals(0, r.json().path("events").size());
        assertEquals(0, r.json().path("last_id").asLong(-1), r.out());
        Cli.Result human = cli.run("queue", "events");
        assertEquals(0, human.exit(), human.toString());
        Cli.Result since = cli.run("queue", "events", "--json", "--since", "0");
        assertEquals(0, since.exit(), since.toString());
        assertEquals(0, since.json().path("last_id").asLong(-1));
    }

    /** queue tick --watch --json is JSON Lines: one compact document per pass, then a summary when stopped. */
    @Test
    void tickWatchWithJsonIsJsonLinesEndingInASummary() throws Exception {
        Cli.Result[] result = new Cli.Result[1];
        Thread watcher = Thread.ofPlatform().start(() -> result[0] = cli.run("queue", "tick", "--watch", "1", "--json"));
        Thread.sleep(2_500);
        watcher.interrupt(); // what Ctrl-C does to a waiting command
        watcher.join(30_000);
        Cli.Result r = result[0];
        assertEquals(0, r.exit(), r.toString());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.size() >= 3, r.toString());
        for (String line : lines.subList(0, lines.size() - 1)) {
            assertTrue(Cli.JSON.readTree(line).has("nodes_up"), line);
        }
        JsonNode summary = Cli.JSON.readTree(lines.getLast());
        assertTrue(summary.path("summary").asBoolean(), r.out());
        assertEquals(lines.size() - 1, summary.path("passes").asInt());
    }

    @Test
    void optionsMayStandAfterTheParentWord() {
        submit();
        Cli.Result r = cli.run("queue", "--json", "events");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.json().has("events"));
        Cli.Result j = cli.run("job", "--json", "ls");
        assertTrue(j.json().has("jobs"));
    }

    @Test
    void idempotencyKeyReturnsTheFirstJob() {
        JsonNode first = cli.json("job", "submit", "--gpus", "0", "--idempotency-key", "k1", "--", "true");
        JsonNode second = cli.json("job", "submit", "--gpus", "0", "--idempotency-key", "k1", "--", "false");
        assertEquals(first.path("job").path("id"), second.path("job").path("id"));
        assertTrue(second.path("duplicate").asBoolean());
        assertEquals("true", second.path("job").path("command").asText());
    }

    @Test
    void filesAreOwnerOnly() throws Exception {
        cli = new Cli(tmp.resolve("fresh")); // a home nvidb creates itself, not the test
        cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cli.nvidbHome())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cli.database())));
        Path wal = cli.database().resolveSibling("queue.db-wal");
        if (Files.exists(wal)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(wal)));
        }
    }

    @Test
    void dbPathOptionAndEnvironmentChooseTheFile() {
        Path other = tmp.resolve("elsewhere/q.db");
        cli.json("job", "submit", "--gpus", "0", "--db-path", other.toString(), "--", "true");
        assertTrue(Files.exists(other));
        assertFalse(Files.exists(cli.database()));
        cli.env("NVIDB_QUEUE_DB", other.toString());
        assertEquals(1, cli.json("job", "ls").path("jobs").size());
    }

    @Test
    void versionAndHelpListTheExitCodes() {
        Cli.Result v = cli.run("--version");
        assertEquals(0, v.exit());
        assertTrue(v.out().startsWith("nvidb "), v.out());
        Cli.Result help = cli.run("job", "submit", "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("--idempotency-key"), help.out());
        assertTrue(cli.run("--help").out().contains("64   usage"));
        Cli.Result bare = cli.run("job");
        assertNotEquals(0, bare.exit());
    }

    static List<Long> ids(JsonNode listing) {
        List<Long> out = new ArrayList<>();
        listing.path("jobs").forEach(j -> out.add(j.path("id").asLong()));
        return out;
    }
}
