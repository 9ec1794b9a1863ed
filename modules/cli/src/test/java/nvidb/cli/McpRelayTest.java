package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code nvidb mcp} on a laptop whose queue.yml names a queue host: the server runs on the host
 * over one ssh session (a real sshd on loopback) and serves the host's queue; when the connection
 * breaks, the request in flight and every later one get an {@code unavailable} error answer, never
 * a hang; when the client closes stdin, it ends.
 */
class McpRelayTest extends QueueHostTest {
    @Test
    void theQueueHostServesTheSessionAndALostConnectionIsAnErrorNotAHang() throws Exception {
        Process relay = q.startClient("mcp");
        try {
            OutputStream in = relay.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(relay.getInputStream(), StandardCharsets.UTF_8));
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"laptop-agent\",\"version\":\"1\"}}}");
            assertEquals("nvidb", answer(out, 1).path("result").path("serverInfo").path("name").asText());
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"submit\","
                    + "\"arguments\":{\"gpus\":0,\"command\":[\"sleep\",\"300\"],\"note\":\"from the laptop\"}}}");
            JsonNode answered = answer(out, 2);
            JsonNode submitted = answered.path("result").path("structuredContent");
            long id = submitted.path("job").path("id").asLong();
            assertTrue(id > 0, answered.toString());
            assertEquals("from the laptop", q.host.json("job", "show", String.valueOf(id), "--no-tick").path("notes").asText(),
                    "the job is in the queue host's queue");

            send(in, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"wait\","
                    + "\"arguments\":{\"ids\":[\"" + id + "\"]}}}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
            answer(out, 4); // the wait is under way on the host
            // The connection breaks: the ssh client this relay runs dies.
            relay.descendants().filter(p -> p.info().command().map(c -> c.endsWith("/ssh")).orElse(false))
                    .forEach(ProcessHandle::destroyForcibly);
            JsonNode lost = answer(out, 3);
            assertTrue(lost.path("error").path("message").asText().startsWith("unavailable"), lost.toString());
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
            assertTrue(answer(out, 5).path("error").path("message").asText().contains(q.sshd.host()),
                    "a later request is answered at once, naming the host");
            in.close();
            assertTrue(relay.waitFor(30, TimeUnit.SECONDS), "the relay ends when the client closes stdin");
            q.host.run("job", "cancel", String.valueOf(id));
        } finally {
            relay.destroyForcibly();
        }
    }

    private static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private static JsonNode answer(BufferedReader out, int id) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            JsonNode m = Cli.JSON.readTree(line);
            if (m.path("id").asInt(-1) == id && !m.has("method")) {
                return m;
            }
        }
        throw new AssertionError("the relay ended before answering " + id);
    }
}
