package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import nvidb.core.api.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web's usage: {@code GET /api/v1/usage} answers {@code queue usage --json}'s document, and
 * {@code /metrics} each user's running GPUs and GPU-seconds, over the hand-worked jobs of
 * {@link QueueUsageTest}.
 */
class WebUsageTest {
    @TempDir
    Path tmp;
    WebFixture web;

    @AfterEach
    void stop() throws Exception {
        if (web != null) {
            web.close();
        }
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("alpha-jobs"));
    }

    private static JsonNode withoutUntil(JsonNode doc) {
        ObjectNode copy = doc.deepCopy();
        copy.remove("until");
        return copy;
    }

    @Test
    void theUsageRouteAnswersQueueUsagesDocumentAndMetricsCountEachUser() throws Exception {
        web = new WebFixture(tmp);
        QueueUsageTest.november(web.cli);
        // The jobs of November only: nothing waits for a pass to start it.
        QueueUsageTest.sql(web.cli, "UPDATE jobs SET state = 'cancelled' WHERE state = 'pending'");
        web.start("127.0.0.1:0", false);

        HttpResponse<String> r = web.get("/api/v1/usage?since=" + QueueUsageTest.SINCE + "&by=node");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode cli = web.cli.json("queue", "usage", "--no-tick", "--since", QueueUsageTest.SINCE, "--by", "node");
        assertEquals(withoutUntil(cli), withoutUntil(Json.readTree(r.body())), r.body());
        assertEquals("alpha", Json.readTree(r.body()).path("rows").path(0).path("key").asText(), r.body());
        JsonNode byUser = Json.readTree(web.get("/api/v1/usage?since=all").body());
        assertEquals("user", byUser.path("by").asText(), "by user unless asked");
        assertEquals(10.0, byUser.path("rows").path(0).path("gpu_hours").asDouble(), byUser.toString());

        HttpResponse<String> bad = web.get("/api/v1/usage?since=yesterday");
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("--since takes a duration such as 7d, 12h or 30m"), bad.body());
        assertEquals(400, web.get("/api/v1/usage?by=team").statusCode());

        // A job of this account running on alpha's GPU: its GPU counts now, and every finished run ever.
        long id = web.submit("--no-tick", "--node", "alpha", "--", "exec sleep 60");
        LocalJobsTest.waitUntil(() -> {
            web.cli.json("queue", "tick");
            return web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText().equals("running");
        }, 60);
        String account = web.cli.json("job", "show", String.valueOf(id), "--no-tick").path("user").asText();
        String metrics = web.get("/metrics").body();
        assertTrue(metrics.contains("# TYPE nvidb_user_running_gpus gauge\n"), metrics);
        assertTrue(metrics.contains("\nnvidb_user_running_gpus{user=\"" + account + "\"} 1\n"), metrics);
        assertTrue(metrics.contains("\nnvidb_user_running_gpus{user=\"alice\"} 0\n"), metrics);
        assertTrue(metrics.contains("# TYPE nvidb_user_gpu_seconds_total counter\n"), metrics);
        // alice: 2 GPUs × 3 h and 1 GPU × 4 h; carol 1 GPU × 1 h; bob 1 GPU × 30 min.
        assertTrue(metrics.contains("\nnvidb_user_gpu_seconds_total{user=\"alice\"} 36000\n"), metrics);
        assertTrue(metrics.contains("\nnvidb_user_gpu_seconds_total{user=\"carol\"} 3600\n"), metrics);
        assertTrue(metrics.contains("\nnvidb_user_gpu_seconds_total{user=\"bob\"} 1800\n"), metrics);
        web.cli.json("job", "cancel", String.valueOf(id));
    }
}
