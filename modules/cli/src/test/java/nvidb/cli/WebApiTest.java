package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API of {@code nvidb queue web} with the JDK's HTTP client, against a real queue with a
 * node behind a fake nvidia-smi: every endpoint prints the CLI's own document, every action is the
 * CLI's operation with its error codes as HTTP statuses, and the security list of issue 22.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WebApiTest {
    @TempDir
    Path tmp;
    WebFixture web;

    @BeforeEach
    void setUp() throws Exception {
        web = new WebFixture(tmp).start("127.0.0.1:0", false);
        web.cli.json("queue", "tick");
    }

    @AfterEach
    void tearDown() {
        web.close();
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            return Cli.JSON.readTree(r.body());
        } catch (Exception e) {
            throw new AssertionError("not JSON (" + r.statusCode() + "): " + r.body(), e);
        }
    }

    /** The document less what changes with the moment it is printed. */
    private static JsonNode timeless(JsonNode doc) {
        JsonNode copy = doc.deepCopy();
        copy.findParents("elapsed_s").forEach(p -> ((ObjectNode) p).remove("elapsed_s"));
        copy.findParents("generated_at").forEach(p -> ((ObjectNode) p).remove("generated_at"));
        return copy;
    }

    @Test
    void everyReadIsTheDocumentTheCliPrints() throws Exception {
        long id = web.submit("--name", "reader", "--tag", "t1", "--", "echo out-line; echo err-line >&2; sleep 30");
        web.cli.json("queue", "tick");
        String ids = String.valueOf(id);
        assertEquals(timeless(web.cli.json("queue", "status", "--no-tick")), timeless(json(web.get("/api/v1/status"))));
        assertEquals(timeless(web.cli.json("job", "ls", "--no-tick", "-n", "100")), timeless(json(web.get("/api/v1/jobs"))));
        assertEquals(timeless(web.cli.json("job", "ls", "--no-tick", "--state", "running", "-n", "5")),
                timeless(json(web.get("/api/v1/jobs?state=running&limit=5"))));
        assertEquals(timeless(web.cli.json("job", "show", ids, "--no-tick")), timeless(json(web.get("/api/v1/jobs/" + id))));
        assertEquals(web.cli.json("queue", "events", "--since", "0"), json(web.get("/api/v1/events?since=0")));
        assertEquals(web.cli.json("queue", "lanes", "--no-tick"), json(web.get("/api/v1/lanes")));
        assertEquals(web.cli.json("queue", "history", "--gpu", "alpha:0", "--range", "1h"),
                json(web.get("/api/v1/history?gpu=alpha:0&range=1h")));
        JsonNode queue = json(web.get("/api/v1/history?range=1d"));
        assertEquals(web.cli.json("queue", "history", "--range", "1d"), queue);
        JsonNode gpu = json(web.get("/api/v1/history?gpu=alpha:0&range=1h")).path("samples").path(0);
        assertEquals(81920, gpu.path("total_mb").asLong(), gpu.toString());
        assertEquals(12000, gpu.path("external_mb").asLong(), gpu.toString());
        assertEquals(37, gpu.path("util_percent").asInt(), gpu.toString());
        // alerts: the document whether or not alerts are open (the command's exit 1 is not an error)
        assertEquals(web.cli.run("queue", "alerts", "--json", "--no-tick").json(), json(web.get("/api/v1/alerts")));
        long deadline = System.currentTimeMillis() + 10_000;
        String log = "";
        while (!log.contains("out-line") && System.currentTimeMillis() < deadline) {
            log = json(web.get("/api/v1/jobs/" + id + "/logs?tail=10")).path("log").asText();
            Thread.sleep(100);
        }
        assertEquals(web.cli.json("job", "logs", ids, "-n", "10", "--no-tick"), json(web.get("/api/v1/jobs/" + id + "/logs?tail=10")));
        assertEquals("err-line\n", json(web.get("/api/v1/jobs/" + id + "/logs?stream=stderr")).path("log").asText());
        JsonNode found = json(web.get("/api/v1/jobs?q=READER"));
        assertEquals(1, found.path("jobs").size(), found.toString());
        assertEquals(0, json(web.get("/api/v1/jobs?q=nobody-has-this")).path("jobs").size());
    }

    @Test
    void aListingBiggerThanWhatIsHeldStreamsOutAsTheSameDocument() throws Exception {
        // 400 pending jobs: a status document of ~400 KB, past the 256 KiB answered whole.
        web.cli.json("job", "sweep", "--no-tick", "--gpus", "0", "--grid",
                "i=" + java.util.stream.IntStream.range(0, 400).mapToObj(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(",")), "--", "sleep {i}");
        HttpResponse<String> r = web.get("/api/v1/status");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().length() > 256 * 1024, "big enough to stream: " + r.body().length());
        assertTrue(r.headers().firstValue("content-length").isEmpty(), "streamed (chunked), not held: " + r.headers());
        assertEquals("application/json; charset=utf-8", r.headers().firstValue("content-type").orElse(""));
        assertEquals("no-store", r.headers().firstValue("cache-control").orElse(""));
        JsonNode doc = json(r);
        assertEquals(400, doc.path("jobs").size());
        assertEquals(timeless(web.cli.json("queue", "status", "--no-tick")), timeless(doc));
        // A small answer is still whole, with its length and its command's status.
        HttpResponse<String> small = web.get("/api/v1/lanes");
        assertTrue(small.headers().firstValue("content-length").isPresent(), small.headers().toString());
        assertEquals(404, web.get("/api/v1/jobs/999999").statusCode());
    }

    @Test
    void actionsAreTheCliOperationsWithTheirErrorsAsStatuses() throws Exception {
        String token = web.token();
        long id = web.submit("--name", "acted-on", "--no-tick", "--", "sleep 60");
        HttpResponse<String> up = web.post("/api/v1/jobs/" + id + "/priority", token, "{\"value\": \"+3\"}");
        assertEquals(200, up.statusCode(), up.body());
        assertEquals(3, web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("priority").asInt());
        assertEquals(200, web.post("/api/v1/jobs/" + id + "/priority", token, "{\"value\": \"-5\"}").statusCode());
        assertEquals(-2, web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("priority").asInt());
        assertEquals(400, web.post("/api/v1/jobs/" + id + "/priority", token, "{\"value\": \"--db-path\"}").statusCode());
        assertEquals(400, web.post("/api/v1/jobs/" + id + "/priority", token, "not json").statusCode());
        HttpResponse<String> cancel = web.post("/api/v1/jobs/" + id + "/cancel", token, "");
        assertEquals(200, cancel.statusCode(), cancel.body());
        assertEquals("cancelled", web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());
        HttpResponse<String> again = web.post("/api/v1/jobs/" + id + "/cancel", token, "");
        assertEquals(409, again.statusCode(), again.body());
        assertEquals("conflict", json(again).path("code").asText());
        assertEquals(404, web.post("/api/v1/jobs/999999/cancel", token, "").statusCode());
        assertEquals(200, web.post("/api/v1/jobs/" + id + "/requeue", token, "").statusCode());
        assertEquals(404, web.post("/api/v1/alerts/424242/ack", token, "").statusCode());
        assertEquals(200, web.post("/api/v1/nodes/alpha/drain", token, "").statusCode());
        assertFalse(web.cli.json("queue", "nodes", "--no-tick").path("nodes").path(0).path("enabled").asBoolean());
        assertEquals(200, web.post("/api/v1/nodes/alpha/resume", token, "").statusCode());
        assertEquals(404, web.post("/api/v1/nodes/nowhere/drain", token, "").statusCode());
        assertEquals(404, web.post("/api/v1/jobs/" + id + "/explode", token, "").statusCode());
        assertEquals(404, web.get("/api/v1/jobs/999999").statusCode());
        assertEquals(400, web.get("/api/v1/jobs?state=sleeping").statusCode());
        assertEquals(400, web.get("/api/v1/history?gpu=alpha&range=1h").statusCode());
        assertEquals(400, web.get("/api/v1/history?range=2y").statusCode());
        assertEquals(400, web.get("/api/v1/jobs/abc").statusCode());
        assertEquals(405, web.http.send(HttpRequest.newBuilder(web.uri("/api/v1/status"))
                .method("DELETE", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void anActionWithoutTheRightTokenIsRefusedAndChangesNothing() throws Exception {
        Path file = web.cli.nvidbHome().resolve("web.token");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        long id = web.submit("--no-tick", "--", "sleep 60");
        for (String bearer : new String[] {null, "", "wrong-token-wrong-token-wrong"}) {
            HttpResponse<String> r = web.post("/api/v1/jobs/" + id + "/cancel", bearer, "");
            assertEquals(401, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("WWW-Authenticate").isPresent());
            assertTrue(r.headers().firstValue("Set-Cookie").isEmpty(), "no cookie, ever");
        }
        // A cookie is no credential: a forged cross-site form could send one.
        HttpResponse<String> withCookie = web.http.send(HttpRequest.newBuilder(web.uri("/api/v1/jobs/" + id + "/cancel"))
                .header("Cookie", "token=" + web.token()).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, withCookie.statusCode());
        assertEquals("pending", web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());
        assertEquals(200, web.get("/api/v1/status").statusCode(), "reads on loopback need no token");
    }

    @Test
    void pathsThatClimbOrSmuggleAreRefused() throws Exception {
        for (String path : List.of("/api/v1/jobs/../../etc/passwd", "/api/v1/jobs/1/..%2f..%2fpasswd/logs",
                "/app.js/../index.html", "/api/v1/jobs/%2e%2e/logs", "/..%5c..%5cetc/passwd")) {
            assertEquals(400, raw("GET " + path + " HTTP/1.1\r\nHost: " + host() + "\r\n\r\n").status(), path);
        }
        // The JDK reads "//etc/passwd" as an authority and the path /passwd: nothing there either.
        assertEquals(404, raw("GET //etc/passwd HTTP/1.1\r\nHost: " + host() + "\r\n\r\n").status());
        assertEquals(400, web.get("/api/v1/jobs/1/logs?stream=../../etc/passwd").statusCode());
        assertEquals(400, web.get("/api/v1/jobs/1/logs?stream=/etc/passwd").statusCode());
        assertEquals(404, web.get("/etc/passwd").statusCode());
        assertEquals(404, web.get("/api/v1/jobs/1/logs/extra").statusCode());
        assertEquals(404, web.get("/assets/app.js").statusCode());
    }

    @Test
    void theHostHeaderIsCheckedOnLoopback() throws Exception {
        assertEquals(403, raw("GET /api/v1/status HTTP/1.1\r\nHost: evil.example:80\r\n\r\n").status());
        assertEquals(403, raw("GET /api/v1/status HTTP/1.1\r\nHost: evil.example:" + port() + "\r\n\r\n").status());
        assertEquals(200, raw("GET /api/v1/status HTTP/1.1\r\nHost: localhost:" + port() + "\r\n\r\n").status());
        assertEquals(200, raw("GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n").status(),
                "a loopback name on another port: an ssh port forward's");
    }

    @Test
    void bigBodiesManyStreamsAndSlowClientsAreRefusedAndTheServerStaysUp() throws Exception {
        String token = web.token();
        long id = web.submit("--no-tick", "--", "sleep 60");
        HttpResponse<String> big = web.post("/api/v1/jobs/" + id + "/priority", token, "{\"value\": \"1\", \"pad\": \""
                + "x".repeat(70 * 1024) + "\"}");
        assertEquals(413, big.statusCode(), big.body());
        assertEquals(0, web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("priority").asInt());
        List<InputStream> streams = new ArrayList<>();
        try {
            for (int i = 0; i < 32; i++) {
                HttpResponse<InputStream> s = web.http.send(HttpRequest.newBuilder(web.uri("/api/v1/stream")).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertEquals(200, s.statusCode());
                streams.add(s.body());
            }
            HttpResponse<String> refused = web.get("/api/v1/stream");
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals(200, web.get("/api/v1/status").statusCode());
        } finally {
            for (InputStream s : streams) {
                s.close();
            }
        }
        // A client that sends half a request and waits is cut after the server's 10 s, and others are served meanwhile.
        try (Socket slow = new Socket("127.0.0.1", port())) {
            slow.getOutputStream().write(("GET /api/v1/status HTTP/1.1\r\nHost: " + host() + "\r\nX-Slow: ")
                    .getBytes(StandardCharsets.US_ASCII));
            slow.setSoTimeout(30_000);
            assertEquals(200, web.get("/api/v1/status").statusCode());
            long start = System.nanoTime();
            assertEquals(-1, slow.getInputStream().read(), "the server closes the slow connection");
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(25));
        }
        assertEquals(200, web.get("/api/v1/status").statusCode());
    }

    @Test
    void changesStreamWithinASecondAndAReconnectCatchesUp() throws Exception {
        HttpResponse<InputStream> s = web.http.send(HttpRequest.newBuilder(web.uri("/api/v1/stream")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals("text/event-stream; charset=utf-8", s.headers().firstValue("Content-Type").orElse(""));
        long first;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(s.body(), StandardCharsets.UTF_8))) {
            assertTrue(next(r, "hello").contains("last_id"));
            long start = System.nanoTime();
            first = web.submit("--no-tick", "--name", "streamed", "--", "true");
            String change = next(r, "change");
            while (!change.contains("\"job_submitted\"")) {
                change = next(r, "change"); // the setup's pass may still be on its way
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(change.contains("\"job_submitted\"") && change.contains("\"job_id\":" + first), change);
            assertTrue(ms < 1500, "the change arrived after " + ms + " ms");
        }
        // Gone for a while: two more jobs, then a reconnect from the last id seen.
        String lastId = web.cli.json("queue", "events", "--job", String.valueOf(first)).path("events").path(0).path("id").asText();
        long second = web.submit("--no-tick", "--", "true");
        long third = web.submit("--no-tick", "--", "true");
        HttpResponse<InputStream> again = web.http.send(HttpRequest.newBuilder(web.uri("/api/v1/stream"))
                .header("Last-Event-ID", lastId).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader r = new BufferedReader(new InputStreamReader(again.body(), StandardCharsets.UTF_8))) {
            next(r, "hello");
            assertTrue(next(r, "change").contains("\"job_id\":" + second));
            assertTrue(next(r, "change").contains("\"job_id\":" + third));
        }
    }

    @Test
    void metricsAreThePrometheusText() throws Exception {
        // The job holds 2 GiB on GPU 1 as it runs: spread places it there, away from GPU 0's foreign process.
        long id = web.submit("--no-tick", "--", web.alpha.allocateSnippet(1, 2048) + "; exec sleep 60");
        web.cli.json("queue", "tick");
        assertEquals("[1]", web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("gpu_ids").toString());
        String used = "nvidb_gpu_memory_bytes{gpu=\"1\",kind=\"queue\",node=\"alpha\"} " + 2048L * 1024 * 1024;
        LocalJobsTest.waitUntil(() -> {
            web.cli.json("queue", "tick"); // each pass probes the GPUs again
            return web.get("/metrics").body().contains(used);
        }, 20, () -> "for " + used + "; the GPU: " + web.cli.json("queue", "nodes", "--no-tick").path("nodes").path(0)
                .path("gpus").path(1));
        HttpResponse<String> m = web.get("/metrics");
        assertEquals(200, m.statusCode());
        assertTrue(m.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        String text = m.body();
        assertTrue(text.contains("nvidb_gpu_memory_bytes{gpu=\"0\",kind=\"queue\",node=\"alpha\"} 0"), text);
        assertTrue(text.contains("nvidb_gpu_memory_bytes{gpu=\"0\",kind=\"total\",node=\"alpha\"} " + 81920L * 1024 * 1024), text);
        assertTrue(text.contains("nvidb_gpu_memory_bytes{gpu=\"0\",kind=\"external\",node=\"alpha\"} " + 12000L * 1024 * 1024), text);
        assertTrue(text.contains("nvidb_gpu_utilization_ratio{gpu=\"0\",node=\"alpha\"} 0.37"), text);
        assertTrue(text.contains("nvidb_gpu_temperature_celsius{gpu=\"0\",node=\"alpha\"} 61"), text);
        assertTrue(text.contains("nvidb_node_up{node=\"alpha\"} 1"), text);
        assertTrue(text.contains("nvidb_jobs{state=\"running\"} 1"), text);
        assertTrue(text.contains("# TYPE nvidb_last_pass_duration_seconds gauge"), text);
        assertTrue(text.contains("nvidb_alerts_open "), text);
    }

    @Test
    void thePageRunsNoInlineScriptAndIsNeverSniffedOrFramed() throws Exception {
        HttpResponse<String> page = web.get("/");
        assertEquals(200, page.statusCode());
        String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), csp);
        assertEquals("nosniff", page.headers().firstValue("X-Content-Type-Options").orElse(""));
        assertEquals("DENY", page.headers().firstValue("X-Frame-Options").orElse(""));
        assertFalse(page.body().matches("(?s).*<script>.*"), "no inline script");
        assertFalse(web.get("/app.js").body().contains("innerHTML"), "values go on the page as text only");
    }

    @Test
    void beyondLoopbackReadsNeedTheTokenToo() throws Exception {
        web.server.close();
        web.start("0.0.0.0:0", false);
        assertTrue(web.server.exposed());
        String token = web.token();
        assertEquals(401, web.get("/api/v1/status").statusCode());
        assertEquals(401, web.get("/metrics").statusCode());
        assertEquals(401, web.get("/api/v1/status", "nope").statusCode());
        assertEquals(200, web.get("/api/v1/status", token).statusCode());
        assertEquals(200, web.get("/").statusCode(), "the page itself holds no data");
        HttpResponse<InputStream> s = web.http.send(HttpRequest.newBuilder(web.uri("/api/v1/stream?access_token=" + token))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, s.statusCode());
        s.body().close();
    }

    /** Reads SSE lines up to the data line of the next message of {@code event}. */
    private static String next(BufferedReader r, String event) throws Exception {
        boolean wanted = false;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (line.startsWith("event: ")) {
                wanted = line.substring(7).equals(event);
            } else if (wanted && line.startsWith("data: ")) {
                return line.substring(6);
            }
        }
        throw new AssertionError("the stream ended before a " + event + " message");
    }

    private record Raw(int status, String text) {
    }

    private int port() {
        return web.server.url().getPort();
    }

    private String host() {
        return "127.0.0.1:" + port();
    }

    /** One request written as raw bytes (the JDK client normalises paths and sets Host itself). */
    private Raw raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write((request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Raw(Integer.parseInt(text.split(" ", 3)[1]), text);
        }
    }
}
