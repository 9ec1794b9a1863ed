package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built image's {@code queue web} serving MCP's Streamable HTTP at {@code /mcp} to the SDK's
 * own HTTP client, behind the web's token, and the submit routes {@code POST /api/v1/jobs} and
 * {@code /api/v1/sweeps}: the same tools, arguments and documents as {@code nvidb mcp}.
 */
class McpHttpIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    McpStdioIT.Image cli;
    Process web;
    URI base;
    String token;
    final HttpClient http = HttpClient.newHttpClient();
    McpSyncClient client;

    @BeforeEach
    void setUp() throws Exception {
        cli = new McpStdioIT.Image(Client.image(), tmp);
        Files.createDirectories(tmp.resolve(".nvidb"));
        Files.writeString(tmp.resolve(".nvidb/queue.yml"), "queue:\n  job_root: " + tmp.resolve("jobs") + "\n");
        ProcessBuilder pb = new ProcessBuilder(cli.nvidb().toString(), "queue", "web", "--listen", "127.0.0.1:0", "--json")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().putAll(cli.environment());
        web = pb.start();
        String first = new BufferedReader(new InputStreamReader(web.getInputStream(), StandardCharsets.UTF_8)).readLine();
        JsonNode started = JSON.readTree(first);
        base = URI.create(started.path("url").asText());
        String withToken = started.path("url_with_token").asText();
        token = withToken.substring(withToken.indexOf("#token=") + "#token=".length());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (client != null) {
            client.closeGracefully();
        }
        cli.run("job", "cancel", "1,2,3,4,5,6");
        web.destroy();
        if (!web.waitFor(30, TimeUnit.SECONDS)) {
            web.destroyForcibly();
        }
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anAgentOnAnotherMachineAttachesOverHttpWithTheToken() throws Exception {
        HttpResponse<String> refused = post("/mcp", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertEquals(401, refused.statusCode(), "no token, no MCP: " + refused.body());

        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base.toString())
                .endpoint("/mcp").jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
        client = McpClient.sync(transport).clientInfo(new McpSchema.Implementation("remote-agent", "1"))
                .requestTimeout(Duration.ofSeconds(120)).progressConsumer(progress::add).build();
        client.initialize();
        assertEquals(22, client.listTools().tools().size()); // the 22 the skill names

        McpSchema.CallToolResult submitted = client.callTool(new McpSchema.CallToolRequest("submit",
                Map.of("gpus", 0, "note", "over http", "command", List.of("sh", "-c", "sleep 2; echo from-http"))));
        assertFalse(submitted.isError(), submitted.toString());
        long id = JSON.valueToTree(submitted.structuredContent()).path("job").path("id").asLong();
        McpSchema.CallToolResult waited = client.callTool(new McpSchema.CallToolRequest("wait",
                Map.of("ids", List.of(String.valueOf(id)), "timeout", 90), Map.of("progressToken", "h1")));
        assertEquals(0, JSON.valueToTree(waited.structuredContent()).path("outcome").asInt(), waited.toString());
        assertTrue(progress.stream().anyMatch(p -> "h1".equals(p.progressToken())), "progress over SSE: " + progress);
        McpSchema.CallToolResult logs = client.callTool(new McpSchema.CallToolRequest("logs", Map.of("id", id)));
        assertEquals("from-http\n", JSON.valueToTree(logs.structuredContent()).path("log").asText());
        JsonNode shown = cli.json("job", "show", String.valueOf(id), "--no-tick");
        assertEquals("remote-agent", shown.path("submitter").asText());
    }

    @Test
    void postSubmitsAJobOncePerIdempotencyKey() throws Exception {
        String body = "{\"gpus\": 0, \"command\": [\"echo\", \"posted\"], \"note\": \"from curl\", \"no_tick\": true}";
        assertEquals(401, post("/api/v1/jobs", body).statusCode(), "no token: nothing submitted");
        HttpResponse<String> first = post("/api/v1/jobs", body, "Authorization", "Bearer " + token, "Idempotency-Key", "k-1");
        assertEquals(201, first.statusCode(), first.body());
        HttpResponse<String> again = post("/api/v1/jobs", body, "Authorization", "Bearer " + token, "Idempotency-Key", "k-1");
        assertEquals(200, again.statusCode(), again.body());
        JsonNode a = JSON.readTree(first.body());
        JsonNode b = JSON.readTree(again.body());
        assertEquals(a.path("job").path("id"), b.path("job").path("id"));
        assertTrue(b.path("duplicate").asBoolean(), again.body());

        HttpResponse<String> bad = post("/api/v1/jobs", "{\"command\": [\"true\"], \"vram\": \"20Q\"}",
                "Authorization", "Bearer " + token);
        assertEquals(400, bad.statusCode(), bad.body());
        assertEquals("usage", JSON.readTree(bad.body()).path("code").asText());
        HttpResponse<String> unknown = post("/api/v1/jobs", "{\"command\": [\"true\"], \"gpu\": 1}",
                "Authorization", "Bearer " + token);
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(JSON.readTree(unknown.body()).path("error").asText().contains("gpus"), unknown.body());
        assertEquals(1, cli.json("job", "ls", "--no-tick").path("jobs").size(), "one job, whatever was retried or refused");

        HttpResponse<String> sweep = post("/api/v1/sweeps", "{\"gpus\": 0, \"grid\": [\"x=1,2\"], \"command\": \"echo {x}\","
                + " \"no_tick\": true}", "Authorization", "Bearer " + token);
        assertEquals(201, sweep.statusCode(), sweep.body());
        long sweepId = JSON.readTree(sweep.body()).path("sweep").path("id").asLong();
        HttpResponse<String> shown = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/sweeps/" + sweepId)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, shown.statusCode(), shown.body());
    }
}
