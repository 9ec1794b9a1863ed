package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import nvidb.testkit.WebhookServer;
import nvidb.testkit.WebhookServer.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts raised by real jobs on the local node reach the real sinks at the end of a pass: a
 * webhook on a loopback HTTP server, the log file. What each sink did shows in the alert's JSON.
 * Retries wait for their backoff; the test moves {@code next_try_at} into the past instead of
 * waiting it out, as time would.
 */
class AlertDeliveryTest {
    @TempDir
    Path tmp;
    Cli cli;
    final WebhookServer server = WebhookServer.start().thenAnswer(2, Response.of(503, "try later"));

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private List<String> posted() {
        return server.requests().stream().map(WebhookServer.Request::body).toList();
    }

    private void configure(String... notifyLines) throws IOException {
        StringBuilder yml = new StringBuilder("queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs")
                + "\n  notify:\n");
        for (String line : notifyLines) {
            yml.append("    ").append(line).append('\n');
        }
        cli.write(".nvidb/queue.yml", yml.toString());
    }

    private long failingJob(String... extra) {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--gpus", "0"));
        args.addAll(List.of(extra));
        args.addAll(List.of("--", "echo boom >&2; exit 3"));
        return cli.json(args.toArray(String[]::new)).path("job").path("id").asLong();
    }

    private void waitFor(long id) {
        Cli.Result r = cli.run("job", "wait", String.valueOf(id), "--timeout", "30", "--json");
        assertEquals(1, r.exit(), r.toString());
    }

    private JsonNode alert(String kind) {
        Cli.Result r = cli.run("queue", "alerts", "--all", "--no-tick", "--json");
        assertEquals(1, r.exit(), "open alerts: " + r);
        for (JsonNode a : r.json().path("alerts")) {
            if (a.path("kind").asText().equals(kind)) {
                return a;
            }
        }
        throw new AssertionError("no " + kind + " alert");
    }

    private static JsonNode delivery(JsonNode alert, String sink) {
        for (JsonNode d : alert.path("deliveries")) {
            if (d.path("sink").asText().equals(sink)) {
                return d;
            }
        }
        throw new AssertionError("no delivery to " + sink + " in " + alert);
    }

    /** What passing time does to a failed delivery: its next try is due now. */
    private void backoffRunsOut() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE alert_deliveries SET next_try_at = '2000-01-01T00:00:00+00:00'"
                    + " WHERE next_try_at IS NOT NULL");
        }
    }

    private List<String> logLines() throws IOException {
        Path log = cli.nvidbHome().resolve("alerts.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void aWebhookThatFailsTwiceIsRetriedOnLaterPassesAndDeliveredOnce() throws Exception {
        String url = "http://127.0.0.1:" + server.port();
        configure("desktop: false", "webhook:", "  url: " + url + "/secret-topic", "  timeout: 5");
        long job = failingJob();
        waitFor(job);

        JsonNode first = alert("job_failed");
        long id = first.path("id").asLong();
        assertEquals(job, first.path("job_id").asLong());
        assertEquals("delivered", delivery(first, "log").path("state").asText(), first.toString());
        JsonNode failed = delivery(first, "webhook");
        assertEquals("retrying", failed.path("state").asText(), first.toString());
        assertEquals(1, failed.path("attempts").asInt());
        assertEquals("webhook " + url + " answered HTTP 503: try later", failed.path("last_error").asText());
        assertTrue(failed.path("next_try_at").isTextual());
        assertTrue(first.path("notified_at").isNull(), "the webhook does not have it yet");

        JsonNode waited = cli.json("queue", "tick");
        assertEquals(1, posted().size(), "no retry before next_try_at: " + waited);

        backoffRunsOut();
        JsonNode second = cli.json("queue", "tick");
        assertEquals(2, posted().size());
        assertEquals("failed", second.path("deliveries").path(0).path("outcome").asText(), second.toString());
        assertEquals(2, delivery(alert("job_failed"), "webhook").path("attempts").asInt());

        backoffRunsOut();
        JsonNode third = cli.json("queue", "tick");
        assertEquals("delivered", third.path("deliveries").path(0).path("outcome").asText(), third.toString());
        JsonNode done = alert("job_failed");
        JsonNode delivered = delivery(done, "webhook");
        assertEquals("delivered", delivered.path("state").asText(), done.toString());
        assertEquals(3, delivered.path("attempts").asInt());
        assertTrue(delivered.path("last_error").isNull() && delivered.path("next_try_at").isNull(), done.toString());
        assertTrue(done.path("notified_at").isTextual(), "every sink has it: " + done);
        assertTrue(done.path("acknowledged_at").isNull(), "delivery does not acknowledge");

        backoffRunsOut();
        assertTrue(cli.json("queue", "tick").path("deliveries").isMissingNode(), "nothing left to deliver");
        assertEquals(3, posted().size(), "delivered once, after two failures");
        for (String body : posted()) {
            JsonNode sent = Cli.JSON.readTree(body);
            assertEquals(id, sent.path("id").asLong(), "the id travels, for a consumer to drop repeats");
            assertEquals("job_failed", sent.path("kind").asText());
        }

        List<String> log = logLines();
        assertEquals(1, log.size(), "the log sink took it once, at the first pass: " + log);
        JsonNode logged = Cli.JSON.readTree(log.getFirst());
        assertEquals(posted().getFirst(), log.getFirst(), "every sink gets the same document");
        List<String> shown = new ArrayList<>();
        done.fieldNames().forEachRemaining(shown::add);
        shown.remove("deliveries");
        List<String> sent = new ArrayList<>();
        Iterator<String> names = logged.fieldNames();
        names.forEachRemaining(sent::add);
        assertEquals(shown, sent, "a sink gets the alert as queue alerts --json shows it, less deliveries");
    }

    @Test
    void minSeverityErrorSendsTheFailureButNotTheHoldItCaused() throws Exception {
        configure("desktop: false", "min_severity: error");
        long a = failingJob();
        long b = cli.json("job", "submit", "--gpus", "0", "--after", String.valueOf(a), "--", "true")
                .path("job").path("id").asLong();
        waitFor(a);
        cli.json("queue", "tick");

        JsonNode held = alert("job_held");
        assertEquals(b, held.path("job_id").asLong());
        assertEquals("warning", held.path("severity").asText());
        assertTrue(held.path("notified_at").isTextual(), "settled with nothing to send: " + held);
        assertEquals(0, held.path("deliveries").size(), held.toString());
        assertTrue(held.path("acknowledged_at").isNull(), "recorded and open all the same");

        JsonNode failed = alert("job_failed");
        assertEquals("delivered", delivery(failed, "log").path("state").asText());
        List<String> log = logLines();
        assertEquals(1, log.size(), log.toString());
        assertEquals(failed.path("id").asLong(), Cli.JSON.readTree(log.getFirst()).path("id").asLong());
    }
}
