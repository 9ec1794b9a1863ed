package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every operation carries its Caller, and the events it writes record it: the OS account of the
 * process that asked, its submitter label and the front end; what the scheduler pass that the
 * command made did on its own (the job started) names no one.
 */
class EventCallerTest {
    @TempDir
    Path tmp;

    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "agent-7").env("USER", "someone-else");
        cli.write(".nvidb/queue.yml", "queue:\n  job_root: " + tmp.resolve("jobs") + "\n");
    }

    @Test
    void aCommandsEventsNameWhoAskedAndItsPassesEventsNoOne() {
        long id = cli.json("job", "submit", "--gpus", "0", "--", "sleep", "30").path("job").path("id").asLong();
        cli.json("job", "cancel", String.valueOf(id));
        List<JsonNode> events = new ArrayList<>();
        cli.json("queue", "events", "--job", String.valueOf(id)).path("events").forEach(events::add);
        JsonNode submitted = kind(events, "job_submitted");
        JsonNode started = kind(events, "job_started");
        JsonNode cancelled = kind(events, "job_cancelled");
        // The account is the one the JDK reads from the OS for this uid, not $USER.
        String account = System.getProperty("user.name");
        for (JsonNode asked : List.of(submitted, cancelled)) {
            assertEquals(account, asked.path("by").path("account").asText(), asked.toString());
            assertEquals("agent-7", asked.path("by").path("submitter").asText(), asked.toString());
            assertEquals("cli", asked.path("by").path("via").asText(), asked.toString());
        }
        assertTrue(started.path("by").isMissingNode(), "the submit's pass started it on its own: " + started);
    }

    private static JsonNode kind(List<JsonNode> events, String kind) {
        return events.stream().filter(e -> e.path("kind").asText().equals(kind)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + events));
    }
}
