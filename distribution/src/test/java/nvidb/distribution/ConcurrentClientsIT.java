package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many independent clients on one queue file, each a separate process running the built image's
 * {@code bin/nvidb}: the normal case for agents. The database does not exist when they start.
 */
class ConcurrentClientsIT {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path nvidb;

    @BeforeEach
    void setUp() throws IOException {
        nvidb = Client.image();
        // No node: these clients exercise the queue file, not job execution.
        Files.createDirectories(tmp.resolve("home"));
        Files.writeString(tmp.resolve("home/queue.yml"), "queue:\n  include_local: false\n");
    }

    record Result(int exit, String out, String err) {
    }

    private Process shell(String script) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script);
        pb.environment().put("NVIDB_HOME", tmp.resolve("home").toString());
        pb.environment().put("NVIDB", nvidb.toString());
        pb.environment().remove("NVIDB_QUEUE_DB");
        return pb.start();
    }

    private static Result finish(Process p, long seconds) throws Exception {
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("client did not finish within " + seconds + " s");
        }
        return new Result(p.exitValue(), out.get(), err.get());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private JsonNode run(String... args) throws Exception {
        StringBuilder cmd = new StringBuilder("\"$NVIDB\"");
        for (String a : args) {
            cmd.append(" '").append(a.replace("'", "'\"'\"'")).append('\'');
        }
        Result r = finish(shell(cmd.toString()), 120);
        assertEquals(0, r.exit(), r.err());
        return JSON.readTree(r.out());
    }

    @Test
    void eightProcessesSubmittingFiftyEachGetFourHundredDistinctJobs() throws Exception {
        int processes = 8;
        int each = 50;
        List<Process> clients = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            clients.add(shell("i=0; while [ $i -lt " + each + " ]; do \"$NVIDB\" job submit --json --gpus 0 --name p" + p
                    + "-$i -- true > /dev/null || exit 1; i=$((i+1)); done"));
        }
        for (Process c : clients) {
            Result r = finish(c, 900);
            assertEquals(0, r.exit(), r.err());
            assertEquals("", r.err(), "no error output");
        }
        JsonNode all = run("job", "ls", "--json", "--no-tick", "-n", "0");
        Set<Long> ids = new HashSet<>();
        Set<String> names = new HashSet<>();
        all.path("jobs").forEach(j -> {
            ids.add(j.path("id").asLong());
            names.add(j.path("name").asText());
        });
        assertEquals(processes * each, ids.size());
        assertEquals(processes * each, names.size());
        long submitted = 0;
        for (JsonNode e : run("queue", "events", "--json", "-n", "100000").path("events")) {
            submitted += e.path("kind").asText().equals("job_submitted") ? 1 : 0;
        }
        assertEquals(processes * each, submitted);
    }

    @Test
    void eightProcessesWithOneIdempotencyKeyMakeOneJob() throws Exception {
        List<Process> clients = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            clients.add(shell("\"$NVIDB\" job submit --json --gpus 0 --idempotency-key retry-42 -- echo " + p));
        }
        Set<Long> ids = new HashSet<>();
        int duplicates = 0;
        for (Process c : clients) {
            Result r = finish(c, 300);
            assertEquals(0, r.exit(), r.err());
            assertEquals("", r.err());
            JsonNode doc = JSON.readTree(r.out());
            ids.add(doc.path("job").path("id").asLong());
            duplicates += doc.path("duplicate").asBoolean() ? 1 : 0;
        }
        assertEquals(1, ids.size(), "one job for one key: " + ids);
        assertEquals(7, duplicates);
        assertEquals(1, run("job", "ls", "--json", "--no-tick").path("jobs").size());
    }

    @Test
    void theImageRunsAJobOnTheEmbeddedLocalNode() throws Exception {
        Files.delete(tmp.resolve("home/queue.yml"));
        JsonNode submitted = run("job", "submit", "--json", "--gpus", "0", "--wait", "--wait-timeout", "60", "--",
                "echo hello from the image");
        assertEquals("completed", submitted.path("job").path("state").asText(), submitted.toString());
        JsonNode logs = run("job", "logs", "--json", submitted.path("job").path("id").asText());
        assertEquals("hello from the image\n", logs.path("log").asText());
    }
}
