package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client whose queue.yml names a queue host (remote:) runs every job and queue command there,
 * through a real sshd on loopback, and answers exactly what the host would: the same bytes on
 * stdout and stderr, the same exit code, its own machine untouched.
 */
class ForwardingTest extends QueueHostTest {
    @Test
    void aSubmitLandsInTheHostsQueueAndTheClientHasNone() {
        JsonNode submitted = q.client.json("job", "submit", "--gpus", "0", "--no-tick", "--name", "first", "--", "true");
        long id = submitted.path("job").path("id").asLong();
        JsonNode onHost = q.host.json("job", "show", String.valueOf(id), "--no-tick");
        assertEquals("first", onHost.path("name").asText(), onHost.toString());
        assertFalse(Files.exists(q.client.database()), "the client created no queue of its own");
        assertTrue(Files.exists(q.host.database()));

        // Who submitted it is the client (this JVM), not the host's nvidb process; from where, the client's directory.
        String submitter = onHost.path("submitter").asText();
        assertTrue(submitter.endsWith(":" + ProcessHandle.current().pid()), submitter);
        assertEquals(q.clientWorkdir.toString(), onHost.path("env").path("NVIDB_SUBMIT_DIR").asText(), onHost.toString());

        q.client.env("NVIDB_SUBMITTER", "alice@laptop");
        long second = q.client.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();
        assertEquals("alice@laptop", q.host.json("job", "show", String.valueOf(second), "--no-tick").path("submitter").asText());
    }

    @Test
    void answersAreTheHostsByteForByte() throws Exception {
        long id = q.host.json("job", "submit", "--gpus", "0", "--wait", "--name", "done", "--", "printf 'out\\n'; printf 'err\\n' >&2")
                .path("job").path("id").asLong();
        String n = String.valueOf(id);
        List<String[]> lines = List.of(
                new String[] {"job", "show", "9999"},                  // not found: 3
                new String[] {"job", "show", "9999", "--json"},
                new String[] {"job", "ls", "--actve"},                 // usage: 64
                new String[] {"job", "ls", "--actve", "--json"},
                new String[] {"job", "show", n, "--no-tick", "--json"},
                new String[] {"job", "logs", n, "--no-tick"},
                new String[] {"job", "logs", n, "--no-tick", "--stderr"},
                new String[] {"job", "wait", n},
                new String[] {"job", "wait", n, "--json"},
                new String[] {"queue", "events", "--json"},
                new String[] {"job", "cancel", n, "9999", "--json"},  // several ids: 3, with results
                new String[] {"queue"});
        for (String[] args : lines) {
            Cli.Result there = q.host.run(args);
            Cli.Result forwarded = q.client.run(args);
            assertEquals(there, forwarded, String.join(" ", args));
        }
        assertEquals(3, q.client.run("job", "show", "9999").exit());
        assertEquals(64, q.client.run("job", "ls", "--actve").exit());
        assertFalse(Files.exists(q.client.database()));
    }

    @Test
    void hostileArgumentsArriveByteForByte() throws Exception {
        Path canary = tmp.resolve("pwned");
        List<String> hostile = List.of("two words", "it's", "say \"hi\"", "$HOME", "${PATH}", "`touch " + canary + "`",
                "$(touch " + canary + ")", "a; touch " + canary, "line one\nline two\n", "tab\there", "back\\slash",
                "*", "-n", "ünïcödé 日本語 🚀", "'\"'\"'", "", "&& touch " + canary + " || true", "> " + canary);
        for (String value : hostile) {
            // An option's value may not be empty or look like an option; after -- anything goes.
            boolean optionValue = !value.isEmpty() && !value.startsWith("-");
            List<String> args = new ArrayList<>(List.of("job", "submit", "--gpus", "0", "--no-tick"));
            if (optionValue) {
                args.addAll(List.of("--name", value, "--note", value, "--tag", value));
            }
            args.addAll(List.of("--", "printf", "%s", value));
            JsonNode job = q.client.json(args.toArray(String[]::new)).path("job");
            JsonNode there = q.host.json("job", "show", job.path("id").asText(), "--no-tick");
            if (optionValue) {
                assertEquals(value, there.path("name").asText(), "name " + value);
                assertEquals(value, there.path("notes").asText(), "note " + value);
                assertEquals(value, there.path("tags").path(0).asText(), "tag " + value);
            }
            assertEquals(nvidb.core.api.ShellQuote.join(List.of("printf", "%s", value)), there.path("command").asText());
        }
        assertFalse(Files.exists(canary), "no shell on the way ran any of it");
    }

    @Test
    void aSweepItsParamsFileAndItsSummaryGoThroughTheHost() throws Exception {
        Path params = Files.writeString(q.clientWorkdir.resolve("runs.jsonl"), "{\"lr\": 1}\n{\"lr\": 3}\n");
        JsonNode made = q.client.json("job", "sweep", "--gpus", "0", "-n", "fw", "--params-file", params.toString(), "--",
                "sh", "-c", "printf '\\173\"loss\": %s\\175' \"$1\" > \"$NVIDB_JOB_DIR/result.json\"", "_", "{lr}");
        long sweep = made.path("sweep").path("id").asLong();
        assertEquals(2, made.path("runs").size(), made.toString());
        Cli.Result waited = q.client.run("sweep", "wait", String.valueOf(sweep), "--timeout", "60", "--json");
        assertEquals(0, waited.exit(), waited.toString());
        JsonNode shown = q.client.json("sweep", "show", String.valueOf(sweep), "--metric", "loss");
        assertEquals(0, shown.path("best_index").asInt(), shown.toString());
        assertEquals(1.0, shown.path("rows").path(0).path("metrics").path("loss").asDouble(), shown.toString());
        assertEquals(shown.path("rows").size(), q.host.json("sweep", "show", String.valueOf(sweep), "--no-tick")
                .path("rows").size(), "the host's sweep");
        assertEquals(1, q.client.json("sweep", "ls").path("sweeps").size());
        assertFalse(Files.exists(q.client.database()), "the client created no queue of its own");
    }

    @Test
    void aScriptTravelsByItsContent() throws Exception {
        String content = "#!/bin/sh\necho \"it's $((1 + 2))\" `echo ok`\n";
        Path script = Files.writeString(q.clientWorkdir.resolve("train.sh"), content);
        long a = q.client.json("job", "submit", "--gpus", "0", "--no-tick", "--script", script.toString())
                .path("job").path("id").asLong();
        long b = q.client.json("job", "submit", "--gpus", "0", "--no-tick", "--script=" + script)
                .path("job").path("id").asLong();
        for (long id : List.of(a, b)) {
            assertEquals(content, q.host.json("job", "show", String.valueOf(id), "--no-tick").path("command").asText());
        }
        try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("nvidb-forwarded-")),
                    "the host removed its copy");
        }

        long logins = q.sshd.acceptedLogins();
        Cli.Result missing = q.client.run("job", "submit", "--gpus", "0", "--script", tmp.resolve("nope.sh").toString());
        assertEquals(64, missing.exit(), missing.toString());
        assertEquals("error: script not found: " + tmp.resolve("nope.sh") + "\n", missing.err());
        assertEquals(logins, q.sshd.acceptedLogins(), "a script that cannot be read here is not sent anywhere");
    }

    @Test
    void followedLogsStreamAsTheyCome() throws Exception {
        Path flag = tmp.resolve("flag");
        long id = q.client.json("job", "submit", "--gpus", "0", "--", "echo first; while [ ! -e " + flag
                + " ]; do sleep 0.1; done; echo second").path("job").path("id").asLong();
        Process follow = q.startClient("job", "logs", String.valueOf(id), "-f");
        try (BufferedReader out = new BufferedReader(new InputStreamReader(follow.getInputStream(), StandardCharsets.UTF_8))) {
            // The job prints its second line only once the first has reached the client.
            assertEquals("first", out.readLine());
            Files.createFile(flag);
            assertEquals("second", out.readLine());
        }
        Cli.Result r = Cli.finish(follow, 60);
        assertEquals(0, r.exit(), r.toString());
        assertEquals(q.host.run("job", "wait", String.valueOf(id), "--json"),
                q.client.run("job", "wait", String.valueOf(id), "--json"));
    }

    @Test
    void dbPathAndLocalChooseTheQueue() throws Exception {
        Path other = tmp.resolve("host/other.db");
        q.client.json("--db-path", other.toString(), "job", "submit", "--gpus", "0", "--no-tick", "--name", "elsewhere",
                "--", "true");
        assertEquals("elsewhere", q.host.json("job", "ls", "--db-path", other.toString(), "--no-tick")
                .path("jobs").path(0).path("name").asText(), "--db-path names a file on the queue host");

        q.client.json("--local", "job", "submit", "--gpus", "0", "--no-tick", "--name", "mine", "--", "true");
        assertTrue(Files.exists(q.client.database()), "--local uses this machine's queue");
        assertEquals("mine", q.client.json("job", "ls", "--local", "--no-tick").path("jobs").path(0).path("name").asText());
        assertFalse(Files.exists(q.host.database()), "and leaves the host's alone");
        q.client.env("NVIDB_QUEUE_NO_REMOTE", "1");
        assertEquals("mine", q.client.json("job", "ls", "--no-tick").path("jobs").path(0).path("name").asText());
    }

    @Test
    void queueStatusSaysWhichQueueItLooksAt() {
        JsonNode forwarded = q.client.json("queue", "status", "--no-tick");
        assertEquals(q.sshd.host(), forwarded.path("queue_host").asText(), forwarded.toString());
        assertEquals(q.host.database().toString(), forwarded.path("db_path").asText());
        JsonNode there = q.host.json("queue", "status", "--no-tick");
        assertTrue(there.has("queue_host") && there.path("queue_host").isNull(), there.toString());
        Cli.Result human = q.client.run("queue", "status", "--no-tick");
        assertTrue(human.out().startsWith("QUEUE  host=" + q.sshd.host() + "  db=" + q.host.database()), human.toString());
    }

    @Test
    void helpNeedsNoQueueHost() {
        q.sshd.stop();
        for (String[] args : new String[][] {{"job", "submit", "--help"}, {"queue", "-h"}, {"--version"}, {"plugins"}}) {
            Cli.Result r = q.client.run(args);
            assertEquals(0, r.exit(), String.join(" ", args) + ": " + r);
        }
    }
}
