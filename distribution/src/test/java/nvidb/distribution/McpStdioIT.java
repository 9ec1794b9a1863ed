package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import nvidb.mcp.Tools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built image's {@code nvidb mcp} driven by the MCP SDK's own client over stdio
 * with a real queue and the real local transport: the tools as listed, submit, wait with
 * progress, logs, cancel, each error kind, hostile strings, a client that leaves mid-wait, a
 * cancelled request, two clients at once.
 */
class McpStdioIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    Image cli;
    final List<McpSyncClient> clients = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        cli = new Image(Client.image(), tmp);
        Files.createDirectories(tmp.resolve(".nvidb"));
        Files.writeString(tmp.resolve(".nvidb/queue.yml"), "queue:\n  job_root: " + tmp.resolve("jobs") + "\n");
    }

    /** The image's nvidb with this test's home: one command line at a time, or its command for a client to start. */
    record Image(Path nvidb, Path home) {
        Map<String, String> environment() {
            return Map.of("HOME", home.toString(), "NVIDB_HOME", home.resolve(".nvidb").toString(),
                    "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        }

        List<String> javaCommand() {
            return List.of(nvidb.toString());
        }

        String run(String... args) {
            try {
                ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(javaCommand())).redirectErrorStream(true);
                pb.command().addAll(List.of(args));
                pb.environment().clear();
                pb.environment().putAll(environment());
                Process p = pb.start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError("nvidb " + List.of(args) + " did not end");
                }
                return p.exitValue() + "\n" + out;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        JsonNode json(String... args) {
            List<String> all = new ArrayList<>(List.of(args));
            int dd = all.indexOf("--");
            all.add(dd < 0 ? all.size() : dd, "--json");
            String r = run(all.toArray(String[]::new));
            if (!r.startsWith("0\n")) {
                throw new AssertionError("expected success from " + all + "\n" + r);
            }
            try {
                return JSON.readTree(r.substring(2));
            } catch (java.io.IOException e) {
                throw new AssertionError(r, e);
            }
        }
    }

    @AfterEach
    void tearDown() {
        clients.forEach(McpSyncClient::closeGracefully);
        cli.run("job", "cancel", "1,2,3,4,5,6,7,8,9,10,11,12");
    }

    private McpSyncClient client(String name, List<McpSchema.ProgressNotification> progress) {
        return client(name, progress, new ArrayList<>());
    }

    private McpSyncClient client(String name, List<McpSchema.ProgressNotification> progress,
                                 List<McpSchema.ResourceContents> updates) {
        List<String> command = cli.javaCommand();
        ServerParameters server = ServerParameters.builder(command.getFirst()).args(command.subList(1, command.size()))
                .arg("mcp").env(cli.environment()).build();
        McpSyncClient c = McpClient.sync(new StdioClientTransport(server, new JacksonMcpJsonMapper(new ObjectMapper())))
                .clientInfo(new McpSchema.Implementation(name, "1.0"))
                .requestTimeout(Duration.ofSeconds(120)).initializationTimeout(Duration.ofSeconds(120))
                .progressConsumer(progress::add).resourcesUpdateConsumer(updates::addAll).build();
        clients.add(c);
        c.initialize();
        return c;
    }

    private static McpSchema.CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
        return c.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    private static JsonNode doc(McpSchema.CallToolResult r) {
        return JSON.valueToTree(r.structuredContent());
    }

    @Test
    void anAgentSubmitsWaitsReadsAndCancelsThroughTheTools() throws Exception {
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        List<McpSchema.ResourceContents> updates = new CopyOnWriteArrayList<>();
        McpSyncClient c = client("test-agent", progress, updates);

        List<McpSchema.Tool> tools = c.listTools().tools();
        assertEquals(Tools.NAMES, tools.stream().map(McpSchema.Tool::name).toList());
        McpSchema.Tool submit = tools.getFirst();
        assertTrue(((Map<?, ?>) submit.inputSchema().get("properties")).containsKey("idempotency_key"), submit.inputSchema().toString());
        assertTrue(submit.description().contains("note"), "the skill's advice: write a note");
        tools.forEach(t -> assertNotNull(t.outputSchema(), t.name()));
        assertTrue(c.getServerInstructions().contains("nvidb"), "the skill is the instructions");

        McpSchema.CallToolResult submitted = call(c, "submit", Map.of("gpus", 0, "note", "prints hello",
                "command", List.of("sh", "-c", "sleep 1; echo hello; echo oops >&2")));
        assertFalse(submitted.isError(), submitted.toString());
        long id = doc(submitted).path("job").path("id").asLong();
        assertEquals("test-agent", doc(submitted).path("job").path("submitter").asText());
        c.subscribeResource(new McpSchema.SubscribeRequest("nvidb://jobs/" + id));

        McpSchema.CallToolResult waited = c.callTool(new McpSchema.CallToolRequest("wait",
                Map.of("ids", List.of(String.valueOf(id)), "timeout", 90), Map.of("progressToken", "w1")));
        assertFalse(waited.isError(), waited.toString());
        assertEquals(0, doc(waited).path("outcome").asInt(), waited.toString());
        assertTrue(doc(waited).path("all_succeeded").asBoolean(), waited.toString());
        assertTrue(progress.stream().anyMatch(p -> "w1".equals(p.progressToken()) && p.message().contains("job " + id)),
                "progress names the job while it waits: " + progress);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (updates.stream().noneMatch(u -> u.uri().equals("nvidb://jobs/" + id)
                && ((McpSchema.TextResourceContents) u).text().contains("\"completed\"")) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(updates.stream().anyMatch(u -> u.uri().equals("nvidb://jobs/" + id)),
                "the subscription told of the job's change: " + updates);

        assertEquals("hello\n", doc(call(c, "logs", Map.of("id", id))).path("log").asText());
        assertEquals("oops\n", doc(call(c, "logs", Map.of("id", String.valueOf(id), "stderr", true))).path("log").asText());

        long sleeper = doc(call(c, "submit", Map.of("gpus", 0, "command", List.of("sleep", "300")))).path("job").path("id").asLong();
        McpSchema.CallToolResult timedOut = call(c, "wait", Map.of("ids", List.of(String.valueOf(sleeper)), "timeout", 1));
        assertFalse(timedOut.isError(), "a wait timeout is not a failure: " + timedOut);
        assertEquals(2, doc(timedOut).path("outcome").asInt());
        McpSchema.CallToolResult cancelled = call(c, "cancel", Map.of("ids", List.of(String.valueOf(sleeper))));
        assertFalse(cancelled.isError(), cancelled.toString());
        assertTrue(doc(cancelled).path("results").get(0).path("cancelled").asBoolean(), cancelled.toString());

        // The events record who asked, and that it came through MCP.
        JsonNode events = cli.json("queue", "events", "--job", String.valueOf(sleeper)).path("events");
        JsonNode byCancel = null;
        for (JsonNode e : events) {
            if (e.path("kind").asText().equals("job_cancelled")) {
                byCancel = e.path("by");
            }
        }
        assertNotNull(byCancel, events.toString());
        assertEquals("mcp", byCancel.path("via").asText());
        assertEquals("test-agent", byCancel.path("submitter").asText());

        // The resource of a job is its document.
        McpSchema.ReadResourceResult resource = c.readResource(new McpSchema.ReadResourceRequest("nvidb://jobs/" + id));
        assertTrue(((McpSchema.TextResourceContents) resource.contents().getFirst()).text().contains("\"completed\""));
    }

    @Test
    void eachErrorKindIsAToolErrorWithTheCliSentenceAndChangesNothing() {
        McpSyncClient c = client("errors", new ArrayList<>());
        McpSchema.CallToolResult unknownArg = call(c, "submit", Map.of("command", List.of("true"), "gpu", 1));
        assertTrue(unknownArg.isError());
        assertEquals("usage", doc(unknownArg).path("code").asText());
        assertTrue(doc(unknownArg).path("error").asText().contains("gpus"), "names what would be right: " + unknownArg);

        McpSchema.CallToolResult badVram = call(c, "submit", Map.of("command", List.of("true"), "vram", "20Q"));
        assertTrue(badVram.isError());
        assertEquals("usage", doc(badVram).path("code").asText(), badVram.toString());

        McpSchema.CallToolResult wrongType = call(c, "submit", Map.of("command", List.of("true"), "gpus", "two"));
        assertEquals("usage", doc(wrongType).path("code").asText(), wrongType.toString());

        McpSchema.CallToolResult missing = call(c, "job", Map.of("id", 424242));
        assertTrue(missing.isError());
        assertEquals("not_found", doc(missing).path("code").asText());

        long done = doc(call(c, "submit", Map.of("gpus", 0, "command", List.of("true"), "wait", true)))
                .path("job").path("id").asLong();
        McpSchema.CallToolResult conflict = call(c, "cancel", Map.of("ids", List.of(String.valueOf(done))));
        assertTrue(conflict.isError(), conflict.toString());
        assertEquals("conflict", doc(conflict).path("code").asText(), conflict.toString());

        assertEquals(1, cli.json("job", "ls").path("jobs").size(), "only the one good submit made a job");
    }

    @Test
    void hostileStringsAreStoredAndReturnedAsDataNeverRunByAShell() throws Exception {
        McpSyncClient c = client("hostile", new ArrayList<>());
        Path marker = tmp.resolve("pwned");
        String hostile = "$(touch " + marker + ") `touch " + marker + "` '; touch " + marker + "; ' \"\n\t✓ \\";
        Map<String, Object> args = new java.util.HashMap<>(Map.of("gpus", 0, "name", hostile, "note", hostile,
                "tag", List.of(hostile), "submitter", hostile, "env", List.of("HOSTILE=" + hostile),
                "command", List.of("printf", "%s", hostile), "wait", true, "wait_timeout", 90));
        McpSchema.CallToolResult r = call(c, "submit", args);
        assertFalse(r.isError(), r.toString());
        JsonNode job = doc(r).path("job");
        for (String field : List.of("name", "notes", "submitter")) {
            assertEquals(hostile, job.path(field).asText(), field);
        }
        assertEquals(hostile, job.path("tags").get(0).asText());
        assertEquals(hostile, job.path("env").path("HOSTILE").asText());
        assertEquals("completed", job.path("state").asText(), job.toString());
        assertEquals(hostile, doc(call(c, "logs", Map.of("id", job.path("id").asLong()))).path("log").asText());
        assertFalse(Files.exists(marker), "no shell ran a hostile value");
    }

    @Test
    void twoClientsAtOnceShareTheQueue() throws Exception {
        McpSyncClient a = client("agent-a", new ArrayList<>());
        McpSyncClient b = client("agent-b", new ArrayList<>());
        Thread t = Thread.ofPlatform().start(() -> call(a, "submit", Map.of("gpus", 0, "no_tick", true,
                "command", List.of("true"))));
        call(b, "submit", Map.of("gpus", 0, "no_tick", true, "command", List.of("true")));
        t.join(TimeUnit.SECONDS.toMillis(120));
        JsonNode jobs = doc(call(a, "jobs", Map.of("no_tick", true))).path("jobs");
        assertEquals(2, jobs.size(), jobs.toString());
        List<String> submitters = new ArrayList<>();
        jobs.forEach(j -> submitters.add(j.path("submitter").asText()));
        assertTrue(submitters.containsAll(List.of("agent-a", "agent-b")), submitters.toString());
    }

    @Test
    void aCancelledWaitEndsEarlyAndAClientThatLeavesEndsTheServerButNotTheJob() throws Exception {
        long id = cli.json("job", "submit", "--gpus", "0", "--", "sleep", "300").path("job").path("id").asLong();
        List<String> command = new ArrayList<>(cli.javaCommand());
        command.add("mcp");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().putAll(cli.environment());
        Process server = pb.start();
        try {
            OutputStream in = server.getOutputStream();
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
            assertTrue(answer(out, 1).has("result"));
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"wait\","
                    + "\"arguments\":{\"ids\":[\"" + id + "\"]}}}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
            assertTrue(answer(out, 8).has("result"), "the server answers others while a wait goes on");
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}");
            JsonNode waited = answer(out, 7);
            assertEquals(130, waited.path("result").path("structuredContent").path("outcome").asInt(), waited.toString());

            send(in, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"wait\","
                    + "\"arguments\":{\"ids\":[\"" + id + "\"]}}}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}");
            answer(out, 10); // the wait has started
            in.close();
            assertTrue(server.waitFor(20, TimeUnit.SECONDS), "the server ends when the client closes stdin, mid-wait");
            assertEquals("running", cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText(),
                    "the job goes on");
        } finally {
            server.destroyForcibly();
            cli.run("job", "cancel", String.valueOf(id));
        }
    }

    private static void send(OutputStream in, String line) throws java.io.IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The answer to request {@code id}, skipping notifications and other answers. */
    private static JsonNode answer(BufferedReader out, int id) throws java.io.IOException {
        String line;
        while ((line = out.readLine()) != null) {
            JsonNode m = JSON.readTree(line);
            if (m.path("id").asInt(-1) == id && !m.has("method")) {
                return m;
            }
        }
        throw new AssertionError("the server ended before answering " + id);
    }
}
