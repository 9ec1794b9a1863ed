package nvidb.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;
import nvidb.mcp.McpService;
import nvidb.mcp.ToolOutcome;

/**
 * {@code POST /api/v1/jobs} and {@code POST /api/v1/sweeps}: a body of the {@code submit} (or
 * {@code sweep_submit}) tool's arguments, the CLI's options in snake_case, checked and acted on as
 * the tool does, answered with {@code job submit --json}'s (or {@code job sweep --json}'s)
 * document: 201 for a new job, 200 with {@code duplicate: true} for a retried one. The
 * {@code Idempotency-Key} header is {@code --idempotency-key}.
 */
final class Submits {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };
    private static final Map<String, String> TOOLS = Map.of("jobs", "submit", "sweeps", "sweep_submit");

    private final Pool pool;
    private final McpService tools;

    Submits(Pool pool, McpService tools) {
        this.pool = pool;
        this.tools = tools;
    }

    boolean serves(String route) {
        return TOOLS.containsKey(route);
    }

    void post(HttpExchange ex, String route) throws IOException {
        if (tools == null) {
            Http.error(ex, 404, ErrorCode.NOT_FOUND, "this server does not take submits");
            return;
        }
        Map<String, Object> args = arguments(Http.body(ex));
        String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
        if (key != null) {
            Object inBody = args.get("idempotency_key");
            if (inBody != null && !key.equals(inBody)) {
                throw new Http.BadRequest("the Idempotency-Key header and the body's idempotency_key differ");
            }
            args.put("idempotency_key", key);
        }
        Caller caller = pool.with((app, c) -> c);
        ToolOutcome outcome;
        try {
            outcome = tools.call(TOOLS.get(route), caller, args);
        } catch (IllegalStateException e) {
            throw NvidbException.usage(e.getMessage());
        }
        boolean duplicate = Json.readTree(Json.write(outcome.document())).path("duplicate").asBoolean(false);
        Http.json(ex, duplicate ? 200 : 201, Json.pretty(outcome.document()));
    }

    private static Map<String, Object> arguments(String body) {
        try {
            Map<String, Object> args = Json.read(body.isBlank() ? "{}" : body, MAP);
            return args == null ? new LinkedHashMap<>() : new LinkedHashMap<>(args);
        } catch (JsonProcessingException e) {
            throw new Http.BadRequest("the body is not a JSON object of the submit tool's arguments (such as"
                    + " {\"command\": [\"python\", \"train.py\"], \"vram\": \"20G\"}): " + e.getOriginalMessage());
        }
    }
}
