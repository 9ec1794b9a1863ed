package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs run for real on a local node through the real local transport: the embedded default
 * (no configuration at all), with a node whose nvidia-smi is missing, so CPU work still runs.
 */
class LocalJobsTest {
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        // Fast passes for tests: a read may tick again after half a second.
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs") + "\n");
    }

    private JsonNode waitFor(long id, int seconds) {
        Cli.Result r = cli.run("job", "wait", String.valueOf(id), "--timeout", String.valueOf(seconds), "--json");
        assertTrue(r.exit() == 0 || r.exit() == 1, r.toString());
        return r.json().path("jobs").path(0);
    }

    @Test
    void theEmbeddedDefaultRunsACpuJobOnTheLocalNode() {
        JsonNode submitted = cli.json("job", "submit", "--gpus", "0", "--name", "hello", "--", "sh", "-c",
                "echo hello from nvidb; echo oops >&2");
        long id = submitted.path("job").path("id").asLong();
        assertEquals("running", submitted.path("job").path("state").asText(), submitted.toString());
        assertEquals("local", submitted.path("job").path("node").asText());
        JsonNode done = waitFor(id, 30);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals(0, done.path("exit_code").asInt());
        assertEquals("hello from nvidb\n", cli.json("job", "logs", String.valueOf(id)).path("log").asText());
        assertEquals("oops\n", cli.json("job", "logs", String.valueOf(id), "--stderr").path("log").asText());
        JsonNode nodes = cli.json("queue", "nodes");
        JsonNode local = nodes.path("nodes").path(0);
        assertEquals("up", local.path("state").asText());
        assertEquals(0, local.path("gpus").size());
        assertTrue(local.path("last_error").asText().contains("nvidia-smi"), local.toString());
    }

    @Test
    void environmentStatusLineAndResultReachTheQueue() throws Exception {
        Path out = tmp.resolve("env.txt");
        String script = "printf '%s|%s|%s|%s|%s|%s\\n' \"$NVIDB_JOB_ID\" \"$NVIDB_JOB_NAME\" \"$NVIDB_NODE\" "
                + "\"$CUDA_VISIBLE_DEVICES\" \"$FOO\" \"$(basename \"$NVIDB_JOB_DIR\")\" > " + out + "\n"
                + "echo 'step 1/2' > \"$NVIDB_STATUS_FILE\"\n"
                + "echo 'step 2/2' > \"$NVIDB_STATUS_FILE\"\n"
                + "echo '{\"acc\": 0.9}' > \"$NVIDB_JOB_DIR/result.json\"\n";
        long id = cli.json("job", "submit", "--gpus", "0", "--name", "envy", "--env", "FOO=bar baz", "--", script)
                .path("job").path("id").asLong();
        JsonNode done = waitFor(id, 30);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals(id + "|envy|local||bar baz|" + id + "\n", Files.readString(out));
        assertEquals("step 2/2", done.path("progress").asText());
        assertEquals(0.9, cli.json("job", "result", String.valueOf(id)).path("result").path("acc").asDouble());
    }

    @Test
    void aClientSetResultSurvivesAJobThatWritesNone() {
        long id = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "sleep 1").path("job").path("id").asLong();
        cli.json("job", "result", String.valueOf(id), "--set", "{\"keep\": true}");
        cli.json("queue", "tick");
        waitFor(id, 30);
        assertTrue(cli.json("job", "result", String.valueOf(id)).path("result").path("keep").asBoolean());
    }

    @Test
    void failureIsRecordedWithItsStderrTailAndAnAlert() {
        long id = cli.json("job", "submit", "--gpus", "0", "--name", "bad", "--", "echo boom >&2; exit 3")
                .path("job").path("id").asLong();
        Cli.Result wait = cli.run("job", "wait", String.valueOf(id), "--timeout", "30", "--json");
        assertEquals(1, wait.exit(), wait.toString());
        JsonNode job = wait.json().path("jobs").path(0);
        assertEquals("failed", job.path("state").asText());
        assertEquals(3, job.path("exit_code").asInt());
        assertEquals("exit code 3: boom", job.path("last_error").asText());
        JsonNode alerts = cli.run("queue", "alerts", "--json").json();
        JsonNode alert = alerts.path("alerts").path(0);
        assertEquals("job_failed", alert.path("kind").asText());
        assertEquals("boom", alert.path("detail").asText());
    }

    @Test
    void waitExitCodesAndSubmitWait() {
        long slow = cli.json("job", "submit", "--gpus", "0", "--", "sleep 30").path("job").path("id").asLong();
        Cli.Result timedOut = cli.run("job", "wait", String.valueOf(slow), "--timeout", "1", "--json");
        assertEquals(2, timedOut.exit(), timedOut.toString());
        assertTrue(timedOut.json().path("timed_out").asBoolean());
        assertEquals(3, cli.run("job", "wait", "999").exit());
        long quickId = cli.json("job", "submit", "--gpus", "0", "--", "true").path("job").path("id").asLong();
        Cli.Result partly = cli.run("job", "wait", String.valueOf(quickId), "999", "--timeout", "30", "--json");
        assertEquals(3, partly.exit(), "an unknown id is the most serious outcome: " + partly);
        assertEquals("completed", partly.json().path("jobs").path(0).path("state").asText(),
                "the known job was still waited for: " + partly);
        assertEquals("not_found", partly.json().path("code").asText());
        assertEquals("completed", partly.json().path("results").path(0).path("state").asText());
        assertEquals("job 999 not found", partly.json().path("results").path(1).path("error").asText());
        Cli.Result human = cli.run("job", "wait", String.valueOf(quickId), "999");
        assertEquals(3, human.exit());
        assertTrue(human.err().contains("no such job: 999"), human.toString());
        Cli.Result quick = cli.run("job", "submit", "--gpus", "0", "--wait", "--json", "--", "echo done");
        assertEquals(0, quick.exit(), quick.toString());
        assertEquals("completed", quick.json().path("job").path("state").asText());
        Cli.Result bad = cli.run("job", "submit", "--gpus", "0", "--wait", "--json", "--", "exit 4");
        assertEquals(1, bad.exit(), bad.toString());
        cli.json("job", "cancel", String.valueOf(slow));
    }

    @Test
    void timeoutKillsTheWholeProcessGroupEvenAChildThatIgnoresTerm() throws Exception {
        Path pidFile = tmp.resolve("child.pid");
        String script = "sh -c 'trap \"\" TERM; echo $$ > " + pidFile + "; while :; do sleep 1; done' &\nwait\n";
        long id = cli.json("job", "submit", "--gpus", "0", "--timeout", "1", "--", script).path("job").path("id").asLong();
        waitUntil(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), 30);
        long child = Long.parseLong(Files.readString(pidFile).strip());
        Thread.sleep(1500);
        JsonNode done = waitFor(id, 20);
        assertEquals("timeout", done.path("state").asText(), done.toString());
        assertEquals("exceeded max runtime of 1s", done.path("last_error").asText());
        waitUntil(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true), 30); // the KILL comes 5 s after TERM; generous for a loaded machine
        JsonNode alert = cli.run("queue", "alerts", "--json").json().path("alerts").path(0);
        assertEquals("job_timeout", alert.path("kind").asText());
    }

    @Test
    void cancelKillsARunningJob() throws Exception {
        Path pidFile = tmp.resolve("job.pid");
        long id = cli.json("job", "submit", "--gpus", "0", "--", "echo $$ > " + pidFile + "; sleep 60")
                .path("job").path("id").asLong();
        waitUntil(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), 30);
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        // One cancel of a waiting job (cancelled with the others that only wait, in one commit),
        // the running one (stopped first), the waiting one again, a finished job and an unknown id.
        long waiting = cli.json("job", "submit", "--gpus", "0", "--after", String.valueOf(id), "--", "true")
                .path("job").path("id").asLong();
        long done = cli.json("job", "submit", "--gpus", "0", "--wait", "--", "true").path("job").path("id").asLong();
        Cli.Result mixed = cli.run("job", "cancel", String.valueOf(waiting), String.valueOf(id), String.valueOf(waiting),
                String.valueOf(done), "999", "--json");
        assertEquals(3, mixed.exit(), "an unknown id among them: not found, " + mixed);
        JsonNode c = mixed.json();
        JsonNode r = c.path("results");
        assertEquals(List.of(waiting, id, waiting, done, 999L), List.of(r.path(0).path("id").asLong(),
                r.path(1).path("id").asLong(), r.path(2).path("id").asLong(), r.path(3).path("id").asLong(),
                r.path(4).path("id").asLong()), c.toString());
        assertEquals(List.of(true, true, false, false, false), List.of(r.path(0).path("cancelled").asBoolean(),
                r.path(1).path("cancelled").asBoolean(), r.path(2).path("cancelled").asBoolean(),
                r.path(3).path("cancelled").asBoolean(), r.path(4).path("cancelled").asBoolean()), c.toString());
        assertEquals("cancelled", r.path(2).path("state").asText(), "already cancelled by the first mention");
        assertEquals("completed", r.path(3).path("state").asText());
        waitUntil(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), 30);
        assertEquals("cancelled", cli.json("job", "show", String.valueOf(id)).path("state").asText());
        assertEquals("cancelled", cli.json("job", "show", String.valueOf(waiting)).path("state").asText());
        assertEquals(0, cli.json("queue", "status").path("pending_reaps").asInt());
    }

    @Test
    void aKilledGroupIsLostAndRetriesRunAgain() throws Exception {
        Path pidFile = tmp.resolve("lost.pid");
        long lost = cli.json("job", "submit", "--gpus", "0", "--", "echo $$ > " + pidFile + "; sleep 60")
                .path("job").path("id").asLong();
        waitUntil(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank(), 30);
        JsonNode running = cli.json("job", "show", String.valueOf(lost));
        long pgid = running.path("remote_pid").asLong();
        new ProcessBuilder("kill", "-9", "--", "-" + pgid).start().waitFor();
        JsonNode done = waitFor(lost, 20);
        assertEquals("lost", done.path("state").asText(), done.toString());

        Path marker = tmp.resolve("attempts");
        String flaky = "echo x >> " + marker + "; if [ $(wc -l < " + marker + ") -lt 2 ]; then kill -9 $PPID $$; fi; echo ok";
        long retried = cli.json("job", "submit", "--gpus", "0", "--retries", "2", "--", flaky).path("job").path("id").asLong();
        JsonNode ok = waitFor(retried, 30);
        assertEquals("completed", ok.path("state").asText(), ok.toString());
        assertEquals(2, ok.path("attempt").asInt());
        assertTrue(ok.path("run_dir").asText().endsWith("/" + retried + "-attempt-2"), ok.path("run_dir").asText());
        assertEquals(2, Files.readAllLines(marker).size());
        List<String> kinds = new java.util.ArrayList<>();
        cli.run("queue", "alerts", "--json").json().path("alerts").forEach(a -> kinds.add(a.path("kind").asText()));
        assertTrue(kinds.contains("job_lost") && kinds.contains("job_retried"), kinds.toString());
    }

    @Test
    void aMissingWorkdirFailsTheJobWithAMessageThatSaysSo() {
        long id = cli.json("job", "submit", "--gpus", "0", "--workdir", tmp.resolve("nope").toString(), "--", "true")
                .path("job").path("id").asLong();
        JsonNode done = waitFor(id, 20);
        assertEquals("failed", done.path("state").asText());
        assertEquals(127, done.path("exit_code").asInt());
        assertTrue(done.path("last_error").asText().contains("does not exist"), done.toString());
    }

    @Test
    void hostileValuesReachTheJobExactlyAndNeverRunAsShellCode() throws Exception {
        Path canary = tmp.resolve("pwned");
        String evil = "a'b\"c $(touch " + canary + ") `touch " + canary + "` \\n;x\nnewline";
        Path workdir = tmp.resolve("w 'q' $(x)");
        Files.createDirectories(workdir);
        Path out = tmp.resolve("seen");
        String script = "printf '%s' \"$NVIDB_JOB_NAME\" > " + out + ".name; printf '%s' \"$EVIL\" > " + out
                + ".env; pwd -P > " + out + ".pwd";
        long id = cli.json("job", "submit", "--gpus", "0", "--name", evil, "--note", evil, "--env", "EVIL=" + evil,
                "--workdir", workdir.toString(), "--", script).path("job").path("id").asLong();
        JsonNode done = waitFor(id, 20);
        assertEquals("completed", done.path("state").asText(), done.toString());
        assertEquals(evil, Files.readString(Path.of(out + ".name")));
        assertEquals(evil, Files.readString(Path.of(out + ".env")));
        assertEquals(workdir.toRealPath().toString(), Files.readString(Path.of(out + ".pwd")).strip());
        assertEquals(evil, done.path("notes").asText());
        assertFalse(Files.exists(canary), "a value ran as shell code");
    }

    @Test
    void followPrintsOutputUntilTheJobEnds() {
        long id = cli.json("job", "submit", "--gpus", "0", "--", "for i in 1 2 3; do echo line$i; sleep 1; done")
                .path("job").path("id").asLong();
        Cli.Result r = cli.run("job", "logs", String.valueOf(id), "-f");
        assertEquals(0, r.exit(), r.toString());
        assertEquals("line1\nline2\nline3\n", r.out());
        assertEquals("completed", cli.json("job", "show", String.valueOf(id)).path("state").asText());
    }

    /** With --json, following is JSON Lines: every line a complete document, the last one a summary. */
    @Test
    void followWithJsonIsJsonLinesEndingInASummary() throws Exception {
        long id = cli.json("job", "submit", "--gpus", "0", "--", "for i in 1 2 3; do echo line$i; sleep 1; done; exit 3")
                .path("job").path("id").asLong();
        Cli.Result r = cli.run("job", "logs", String.valueOf(id), "-f", "--json");
        assertEquals(0, r.exit(), r.toString());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.size() >= 2, r.toString());
        StringBuilder log = new StringBuilder();
        for (String line : lines.subList(0, lines.size() - 1)) {
            JsonNode chunk = Cli.JSON.readTree(line);
            assertEquals(id, chunk.path("id").asLong(), line);
            assertEquals("stdout", chunk.path("stream").asText(), line);
            log.append(chunk.path("log").asText());
        }
        assertEquals("line1\nline2\nline3\n", log.toString());
        JsonNode summary = Cli.JSON.readTree(lines.getLast());
        assertTrue(summary.path("summary").asBoolean(), lines.getLast());
        assertEquals("failed", summary.path("state").asText());
        assertEquals(3, summary.path("exit_code").asInt());
    }

    @Test
    void drainedAndIgnoredNodesGetNothingNew() {
        cli.json("queue", "tick");
        assertEquals(false, cli.json("queue", "drain", "loc").path("enabled").asBoolean());
        long id = cli.json("job", "submit", "--gpus", "0", "--", "true").path("job").path("id").asLong();
        assertEquals("pending", cli.json("job", "show", String.valueOf(id)).path("state").asText());
        cli.json("queue", "resume", "local");
        cli.json("queue", "tick");
        assertNotNull(waitFor(id, 20));
        cli.json("queue", "ignore", "local");
        assertEquals(0, cli.json("queue", "nodes").path("nodes").size());
        assertEquals(1, cli.json("queue", "nodes", "--include-ignored").path("nodes").size());
        Cli.Result refused = cli.run("job", "submit", "--gpus", "0", "--node", "local", "--", "true");
        assertEquals(64, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("is ignored"), refused.err());
        cli.json("queue", "unignore", "local");
        assertEquals(3, cli.run("queue", "drain", "nowhere").exit());
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void waitUntil(Check check, int seconds) throws Exception {
        waitUntil(check, seconds, () -> "");
    }

    /** As {@link #waitUntil(Check, int)}, saying {@code state} when it times out. */
    static void waitUntil(Check check, int seconds, java.util.function.Supplier<String> state) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
        while (!check.ok()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("condition not met within " + seconds + " s " + state.get());
            }
            Thread.sleep(100);
        }
    }
}
