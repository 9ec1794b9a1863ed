package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.Sweeps;
import nvidb.core.api.TickMode;
import nvidb.core.view.SweepDocuments;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/sweeps} and {@code GET /api/v1/sweeps/ID} of a real {@code queue web}, over a
 * sweep submitted through the application layer whose three runs really ran and wrote their
 * result: the documents are {@code sweep ls --json} and {@code sweep show --json}, with show's
 * options as parameters; an unknown sweep is 404, a malformed id 400.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WebSweepApiTest {
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

    private JsonNode json(String path, int status) throws Exception {
        HttpResponse<String> r = web.get(path);
        assertEquals(status, r.statusCode(), path + ": " + r.body());
        assertEquals("application/json; charset=utf-8", r.headers().firstValue("content-type").orElse(""));
        return Cli.JSON.readTree(r.body());
    }

    /** The document less the ages and durations, which move between two reads. */
    private static JsonNode timeless(JsonNode doc) {
        JsonNode copy = doc.deepCopy();
        copy.findParents("age_s").forEach(p -> ((ObjectNode) p).remove("age_s"));
        copy.findParents("elapsed_s").forEach(p -> ((ObjectNode) p).remove("elapsed_s"));
        return copy;
    }

    /** {@code job sweep -n grid --gpus 0 --grid a=3,1,2 --tag sw -- sh -c SCRIPT _ {a}}, made by the application layer. */
    private SweepDocuments.Submitted submitSweep() {
        String script = "printf '{\"loss\": %s}' \"$1\" > \"$NVIDB_JOB_DIR/result.json\"";
        SubmitRequest template = new SubmitRequest("grid", "-", null, Map.of(), 0, 0, null, null, null, null, List.of(),
                List.of(), null, 0, List.of("sw"), null, null, null);
        Sweeps.SweepRequest request = new Sweeps.SweepRequest(template, List.of("sh", "-c", script, "_", "{a}"),
                List.of("a=3,1,2"), null, null, null, null, null, null, null, false);
        return web.owner.app().sweeps().submit(web.owner.caller(), request, false, TickMode.NONE);
    }

    @Test
    void listAndShowAreTheSweepCommandsDocuments() throws Exception {
        assertEquals(0, json("/api/v1/sweeps", 200).path("sweeps").size(), "no sweep yet");
        SweepDocuments.Submitted made = submitSweep();
        long id = made.sweep().id();
        List<Long> jobs = made.runs().stream().map(SweepDocuments.Run::jobId).toList();
        LocalJobsTest.waitUntil(() -> {
            web.cli.json("queue", "tick"); // each pass collects the runs that ended
            return json("/api/v1/sweeps", 200).path("sweeps").path(0).path("states").path("completed").asInt() == 3;
        }, 30, () -> web.cli.json("sweep", "ls", "--no-tick").toString());

        JsonNode listed = json("/api/v1/sweeps", 200);
        assertEquals(1, listed.path("sweeps").size(), listed.toString());
        JsonNode sweep = listed.path("sweeps").path(0);
        assertEquals(id, sweep.path("id").asLong());
        assertEquals("grid", sweep.path("name").asText());
        assertEquals("[\"a\"]", sweep.path("params").toString());
        assertEquals(3, sweep.path("runs").asInt());
        assertEquals("{\"completed\":3}", sweep.path("states").toString());
        assertEquals("tester@web", sweep.path("submitter").asText());
        assertEquals(ZoneOffset.UTC, OffsetDateTime.parse(sweep.path("created_at").asText()).getOffset(), sweep.toString());
        assertEquals("{\"grid\":{\"a\":[\"3\",\"1\",\"2\"]}}", sweep.path("spec").toString());
        assertTrue(sweep.path("age_s").isIntegralNumber(), sweep.toString());
        assertEquals(timeless(web.cli.json("sweep", "ls", "--no-tick")), timeless(listed));

        String ids = String.valueOf(id);
        JsonNode shown = json("/api/v1/sweeps/" + id, 200);
        assertEquals(id, shown.path("id").asLong(), "the summary's keys come first, unwrapped");
        assertEquals("{\"completed\":3}", shown.path("states").toString());
        assertEquals("[\"loss\"]", shown.path("metric_columns").toString());
        assertTrue(shown.path("metric").isNull() && shown.path("best_index").isNull(), shown.toString());
        List<String> order = new ArrayList<>();
        List<Long> rowJobs = new ArrayList<>();
        for (JsonNode row : shown.path("rows")) {
            order.add(row.path("params").path("a").asText());
            rowJobs.add(row.path("job_id").asLong());
            assertEquals("completed", row.path("state").asText(), row.toString());
            assertEquals(0, row.path("exit_code").asInt(), row.toString());
            assertEquals(row.path("params").path("a").asDouble(), row.path("metrics").path("loss").asDouble(), row.toString());
            assertFalse(row.path("best").asBoolean());
        }
        assertEquals(List.of("3", "1", "2"), order, "the runs in their order");
        assertEquals(jobs, rowJobs);
        assertEquals(timeless(web.cli.json("sweep", "show", ids, "--no-tick")), timeless(shown));

        // show's options as parameters: the best (smallest loss) first, every run in order, or the largest alone.
        JsonNode sorted = json("/api/v1/sweeps/" + id + "?metric=loss&sort", 200);
        assertEquals("loss", sorted.path("metric").asText());
        assertEquals(1, sorted.path("best_index").asInt(), "run 1 (a=1) has the smallest loss");
        List<Double> losses = new ArrayList<>();
        sorted.path("rows").forEach(row -> losses.add(row.path("metrics").path("loss").asDouble()));
        assertEquals(List.of(1.0, 2.0, 3.0), losses);
        assertTrue(sorted.path("rows").path(0).path("best").asBoolean());
        assertEquals(timeless(web.cli.json("sweep", "show", ids, "--metric", "loss", "--sort", "--no-tick")), timeless(sorted));
        JsonNode largest = json("/api/v1/sweeps/" + id + "?metric=loss&max&limit=1", 200);
        assertEquals(1, largest.path("rows").size(), largest.toString());
        assertEquals("3", largest.path("rows").path(0).path("params").path("a").asText());
        assertEquals(timeless(web.cli.json("sweep", "show", ids, "--metric", "loss", "--max", "-n", "1", "--no-tick")),
                timeless(largest));
    }

    @Test
    void anUnknownSweepIsNotFoundAndAMalformedRequestIsRefused() throws Exception {
        JsonNode missing = json("/api/v1/sweeps/424242", 404);
        assertEquals(false, missing.path("ok").asBoolean(true));
        assertEquals("not_found", missing.path("code").asText());
        assertTrue(missing.path("error").asText().contains("424242"), missing.toString());
        for (String bad : List.of("/api/v1/sweeps/abc", "/api/v1/sweeps/-1", "/api/v1/sweeps/1?limit=-1",
                "/api/v1/sweeps/1?max", "/api/v1/sweeps/1?sort", "/api/v1/sweeps/1?metric=loss&min&max")) {
            assertEquals("usage", json(bad, 400).path("code").asText(), bad);
        }
        assertEquals("not_found", json("/api/v1/sweeps/1/runs", 404).path("code").asText(), "no such route");
    }
}
