package nvidb.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;
import nvidb.core.app.ApplicationPool;

/**
 * nvidb as an MCP server, whatever carries it (stdio, Streamable HTTP): the tools of {@link Tools}
 * with the CLI's arguments as their input schemas and the CLI's documents as their structured
 * answers, the job resources ({@link JobResources}), and the skill as the server's instructions.
 * Each call borrows an application from the pool and is asked as its client: the OS account of
 * this process, the client's name ({@code clientInfo}) as the submitter unless
 * {@code NVIDB_SUBMITTER} names one, through MCP.
 */
public final class McpService {
    /** The SDK's JSON mapper, for a transport of the web's own. */
    public static McpJsonMapper json() {
        return JSON;
    }

    /** The SDK's JSON: Jackson 2, as nvidb's own. */
    static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private final ApplicationPool pool;
    private final ToolParameters parameters;
    private final String instructions;
    private final String version;
    private final String submitter;
    final Cancellations cancellations = new Cancellations();
    /** The user an HTTP session's token is (the web's /mcp), by session id; null: this process's account. */
    private volatile java.util.function.Function<String, String> sessionUsers = id -> null;

    /** The skill ({@code skill/nvidb-queue/SKILL.md}, packed beside this class): the server's instructions. */
    public static String skill() {
        try (java.io.InputStream in = McpService.class.getResourceAsStream("SKILL.md")) {
            if (in == null) {
                return "nvidb: a GPU job queue. Submit with the submit tool, follow with wait, logs and events.";
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * @param submitter the submitter every client's calls are made under (the server's
     *                  {@code NVIDB_SUBMITTER}), or null for each client's own name
     */
    public McpService(ApplicationPool pool, ToolParameters parameters, String instructions, String version,
                      String submitter) {
        this.pool = pool;
        this.parameters = parameters;
        this.instructions = instructions;
        this.version = version != null ? version
                : McpService.class.getModule().getDescriptor() != null
                        && McpService.class.getModule().getDescriptor().rawVersion().isPresent()
                        ? McpService.class.getModule().getDescriptor().rawVersion().get() : "dev";
        this.submitter = submitter == null || submitter.isBlank() ? null : submitter.strip();
    }

    /**
     * Serves on an HTTP transport ({@code /mcp} of the web): the server, and the watcher that tells
     * subscribed sessions of job changes; closing the result ends both.
     */
    public AutoCloseable serve(io.modelcontextprotocol.spec.McpStreamableServerTransportProvider transport) {
        McpSyncServer server = build(McpServer.sync(transport));
        AutoCloseable watch = JobResources.watch(this, server, java.time.Duration.ofSeconds(1));
        return () -> {
            watch.close();
            cancellations.cancelAll();
            server.close();
        };
    }

    /**
     * A message (JSON text) from the client of {@code session}, before the SDK reads it: tags a tool
     * call so a cancellation can reach it, acts on a cancellation. Null: the SDK must not see it.
     */
    public String inbound(String session, String message) {
        return cancellations.inbound(session, message);
    }

    /**
     * One tool called outside an MCP session (the web's {@code POST /api/v1/jobs} is the submit
     * tool): the same arguments, checks and document. A refusal is thrown as it is.
     */
    public ToolOutcome call(String toolName, Caller caller, Map<String, Object> arguments) {
        Tool tool = Tools.ALL.stream().filter(t -> t.name().equals(toolName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no tool " + toolName));
        return pool.with((app, access) -> tool.handler().call(new ToolCall(app, caller,
                new ToolArguments(tool.name(), parameters.of(tool.name()), arguments), ToolCall.Progress.NONE)));
    }

    /** The server on {@code spec}'s transport, every tool and resource registered. */
    McpSyncServer build(McpServer.SyncSpecification<?> spec) {
        List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>();
        for (Tool tool : Tools.ALL) {
            tools.add(McpServerFeatures.SyncToolSpecification.builder().tool(describe(tool))
                    .callHandler((exchange, request) -> call(tool, exchange, request)).build());
        }
        return spec.serverInfo(new McpSchema.Implementation("nvidb", "nvidb GPU job queue", version))
                .instructions(instructions)
                .jsonMapper(JSON)
                .jsonSchemaValidator(new DefaultJsonSchemaValidator())
                // Arguments are checked here (ToolArguments), with the CLI's sentences.
                .validateToolInputs(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(true, false).build())
                .tools(tools)
                .resourceTemplates(JobResources.templates(this))
                .build();
    }

    /** The tool as clients list it: the input schema from the CLI's model, the output schema from its document. */
    McpSchema.Tool describe(Tool tool) {
        return McpSchema.Tool.builder().name(tool.name()).title(tool.title()).description(tool.description())
                .inputSchema(ToolParameter.objectSchema(parameters.of(tool.name())))
                .outputSchema(OutputSchemas.of(tool.document()))
                .annotations(new McpSchema.ToolAnnotations(tool.title(), tool.readOnly(), tool.destructive(),
                        tool.readOnly(), true, null))
                .build();
    }

    /**
     * Whose each HTTP session is: the web's {@code /mcp} knows the user of the token that opened it
     * (a per-user web token), and every tool call of that session is that user's.
     */
    public void sessionUsers(java.util.function.Function<String, String> usersBySession) {
        this.sessionUsers = java.util.Objects.requireNonNull(usersBySession);
    }

    /** Who asks in {@code exchange}'s session. */
    Caller caller(McpSyncServerExchange exchange) {
        String name = submitter;
        if (name == null) {
            McpSchema.Implementation client = exchange == null ? null : exchange.getClientInfo();
            name = client == null || client.name() == null || client.name().isBlank() ? "mcp" : client.name().strip();
        }
        String user = exchange == null || exchange.sessionId() == null ? null : sessionUsers.apply(exchange.sessionId());
        return user == null ? Caller.of(Caller.FrontEnd.MCP, name) : new Caller(user, name, Caller.FrontEnd.MCP);
    }

    <T> T withApplication(java.util.function.Function<nvidb.core.app.Application, T> work) {
        return pool.with((app, access) -> work.apply(app));
    }

    private McpSchema.CallToolResult call(Tool tool, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta() == null ? Map.of() : request.meta();
        String key = meta.get(Cancellations.KEY) instanceof String s ? s : null;
        Object token = meta.get("progressToken");
        ToolCall.Progress progress = token == null || exchange == null ? ToolCall.Progress.NONE
                : (step, message) -> exchange.progressNotification(
                        new McpSchema.ProgressNotification(token, (double) step, null, message));
        Caller caller = caller(exchange);
        cancellations.started(key);
        try {
            ToolOutcome outcome = pool.with((app, access) -> {
                ToolArguments args = new ToolArguments(tool.name(), parameters.of(tool.name()), request.arguments());
                return tool.handler().call(new ToolCall(app, caller, args, progress));
            });
            return answer(tool, outcome);
        } catch (NvidbException e) {
            return error(e.code(), e.getMessage(), null);
        } catch (RuntimeException e) {
            return error(ErrorCode.FAILED, tool.name() + " failed: " + e, null);
        } finally {
            cancellations.done(key);
        }
    }

    private static McpSchema.CallToolResult answer(Tool tool, ToolOutcome o) {
        String json = Json.write(o.document());
        if (o.error() != null) {
            return error(o.error(), o.message(), json);
        }
        return McpSchema.CallToolResult.builder()
                .structuredContent(map(json))
                .addTextContent(o.summary() != null ? o.summary() : tool.name() + ": ok")
                // Clients that read only text get the document too (the spec's advice for structured results).
                .addTextContent(json)
                .isError(false)
                .build();
    }

    /** A tool error: the code ({@code usage}, {@code not_found}, …) and the CLI's sentence; the document where there is one. */
    static McpSchema.CallToolResult error(ErrorCode code, String message, String documentJson) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ok", false);
        body.put("code", code.label());
        body.put("error", message);
        if (documentJson != null) {
            body.put("result", map(documentJson));
        }
        return McpSchema.CallToolResult.builder()
                .structuredContent(body)
                .addTextContent(code.label() + ": " + message)
                .isError(true)
                .build();
    }

    private static Map<String, Object> map(String json) {
        try {
            return Json.read(json, MAP);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a document that is not a JSON object: " + e.getMessage(), e);
        }
    }
}
