package nvidb.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Json;

/**
 * {@code /api/v1/…}: each route is one CLI command with {@code --json}, so a document here is the
 * document the command prints, and an action is the command's own core operation with its checks;
 * the command's error code becomes the HTTP status (usage 400, not found 404, conflict 409).
 * Every value taken from the request is checked against what the option takes before it becomes
 * an argument, so no value can become an option of its own.
 */
final class Api {
    private static final Pattern ID = Pattern.compile("[0-9]{1,18}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._@-]{0,127}");
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");
    private static final Pattern PRIORITY = Pattern.compile("[+-]?[0-9]{1,9}");
    private static final List<String> STATES = List.of("pending", "running", "completed", "failed", "cancelled",
            "timeout", "lost");

    private final Web.Backend backend;

    Api(Web.Backend backend) {
        this.backend = backend;
    }

    Web.Backend backend() {
        return backend;
    }

    void handle(HttpExchange ex, String route, boolean read) throws IOException {
        String[] p = route.split("/");
        Map<String, String> q = Http.query(ex);
        List<String> args;
        if (read) {
            args = switch (p.length) {
                case 1 -> switch (p[0]) {
                    case "status" -> List.of("queue", "status", "--no-tick");
                    case "jobs" -> jobs(q);
                    case "events" -> events(q);
                    case "alerts" -> q.containsKey("all") ? List.of("queue", "alerts", "--all", "--no-tick")
                            : List.of("queue", "alerts", "--no-tick");
                    case "lanes" -> List.of("queue", "lanes", "--no-tick");
                    case "nodes" -> List.of("queue", "nodes", "--no-tick");
                    case "history" -> history(q);
                    default -> null;
                };
                case 2 -> p[0].equals("jobs") ? List.of("job", "show", id(p[1]), "--no-tick") : null;
                case 3 -> p[0].equals("jobs") && p[2].equals("logs") ? logs(id(p[1]), q) : null;
                default -> null;
            };
        } else {
            args = p.length == 3 ? action(p[0], p[1], p[2], ex) : null;
        }
        if (args == null) {
            Http.error(ex, 404, ErrorCode.NOT_FOUND, "no route " + (read ? "GET" : "POST") + " /api/v1/" + route
                    + " (see docs/web-and-api.md, \"HTTP API\")");
            return;
        }
        if (read && p.length == 1 && p[0].equals("jobs") && q.containsKey("q")) {
            Web.Backend.Reply reply = backend.command(args); // the text filter reads the whole listing
            String json = filtered(reply.json(), q.get("q"), limit(q));
            Http.json(ex, reply.exit() == 0 ? 200 : Http.status(errorCode(json)), json);
            return;
        }
        SpillingBody body = new SpillingBody(ex);
        body.finish(backend.command(args, body));
    }

    /** {@code state=pending,running|active|held}, {@code limit=N}; {@code q=} is applied to the listing afterwards. */
    private static List<String> jobs(Map<String, String> q) {
        List<String> args = new ArrayList<>(List.of("job", "ls", "--no-tick"));
        String states = q.getOrDefault("state", "");
        for (String s : states.isEmpty() ? new String[0] : states.split(",")) {
            String state = s.strip().toLowerCase(Locale.ROOT);
            if (state.equals("active") || state.equals("held")) {
                args.add("--" + state);
            } else if (STATES.contains(state)) {
                args.add("--state");
                args.add(state);
            } else {
                throw new Http.BadRequest("state takes " + String.join(", ", STATES) + ", active or held, not '" + s + "'");
            }
        }
        args.add("-n");
        // A text filter looks through every job the states allow; the limit applies to what matches.
        args.add(q.containsKey("q") ? "0" : String.valueOf(limit(q)));
        return args;
    }

    private static int limit(Map<String, String> q) {
        String limit = q.getOrDefault("limit", "100");
        return Integer.parseInt(checked(limit, COUNT, "limit", "a number of jobs ≥ 0 (0: all)"));
    }

    private static List<String> events(Map<String, String> q) {
        List<String> args = new ArrayList<>(List.of("queue", "events"));
        if (q.containsKey("since")) {
            args.addAll(List.of("--since", checked(q.get("since"), ID, "since", "an event id ≥ 0")));
        }
        if (q.containsKey("job")) {
            args.addAll(List.of("--job", id(q.get("job"))));
        }
        if (q.containsKey("limit")) {
            args.addAll(List.of("-n", checked(q.get("limit"), COUNT, "limit", "a number of events ≥ 1")));
        }
        return args;
    }

    private static List<String> logs(String id, Map<String, String> q) {
        String stream = q.getOrDefault("stream", "stdout");
        if (!stream.equals("stdout") && !stream.equals("stderr")) {
            throw new Http.BadRequest("stream is stdout or stderr, not '" + stream + "'");
        }
        List<String> args = new ArrayList<>(List.of("job", "logs", id, "--no-tick", "-n",
                checked(q.getOrDefault("tail", "200"), COUNT, "tail", "a number of lines")));
        if (stream.equals("stderr")) {
            args.add("--stderr");
        }
        return args;
    }

    private static List<String> history(Map<String, String> q) {
        List<String> args = new ArrayList<>(List.of("queue", "history", "--range", q.getOrDefault("range", "1h")));
        String gpu = q.get("gpu");
        if (gpu != null) {
            int colon = gpu.lastIndexOf(':');
            if (colon <= 0 || !NAME.matcher(gpu.substring(0, colon)).matches()
                    || !COUNT.matcher(gpu.substring(colon + 1)).matches()) {
                throw new Http.BadRequest("gpu takes NODE:INDEX, such as box406:2, not '" + gpu + "'");
            }
            args.addAll(List.of("--gpu", gpu));
        }
        if (!List.of("1h", "1d", "7d").contains(args.get(3))) {
            throw new Http.BadRequest("range is 1h, 1d or 7d, not '" + args.get(3) + "'");
        }
        return args;
    }

    /** {@code jobs/ID/cancel|requeue|priority}, {@code alerts/ID/ack}, {@code nodes/NAME/drain|resume}. */
    private static List<String> action(String kind, String subject, String verb, HttpExchange ex) throws IOException {
        String body = Http.body(ex);
        return switch (kind + "/" + verb) {
            case "jobs/cancel" -> List.of("job", "cancel", id(subject));
            case "jobs/requeue" -> List.of("job", "requeue", id(subject));
            case "jobs/priority" -> priority(id(subject), body);
            case "alerts/ack" -> List.of("queue", "ack", id(subject));
            case "nodes/drain", "nodes/resume" -> List.of("queue", verb, checked(subject, NAME, "the node", "a node name"));
            default -> null;
        };
    }

    /** A body {@code {"value": "+1"}} (set or adjust), or {@code {"up": N}} / {@code {"down": N}} (move). */
    private static List<String> priority(String id, String body) {
        JsonNode o;
        try {
            o = Json.readTree(body.isBlank() ? "{}" : body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Http.BadRequest("the body is not JSON: " + e.getOriginalMessage());
        }
        for (String key : List.of("up", "down")) {
            if (o.has(key)) {
                return List.of("job", "priority", id, "--" + key,
                        checked(o.get(key).asText(), COUNT, key, "a positive number of slots"));
            }
        }
        if (o.hasNonNull("value")) {
            // After "--": "-2" is the value, not an option.
            return List.of("job", "priority", id, "--", checked(o.get("value").asText(), PRIORITY, "value",
                    "a priority such as 5, +1 or -2"));
        }
        throw new Http.BadRequest("the body is {\"value\": \"5\" | \"+1\" | \"-2\"} or {\"up\": N} or {\"down\": N}");
    }

    private static String id(String text) {
        return checked(text, ID, "the job id", "a number");
    }

    private static String checked(String value, Pattern pattern, String what, String expected) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw new Http.BadRequest(what + " takes " + expected + ", not '" + value + "'");
        }
        return value;
    }

    /** The {@code code} of an error document ({@code ok: false}), or null for any other document. */
    static String errorCode(String json) {
        try {
            JsonNode doc = Json.readTree(json);
            return doc.path("ok").isBoolean() && !doc.path("ok").asBoolean() ? doc.path("code").asText(null) : null;
        } catch (IOException e) {
            return "failed";
        }
    }

    /** The jobs of a {@code job ls} document whose name, command, submitter, node or tags hold {@code text}. */
    private static String filtered(String json, String text, int limit) throws IOException {
        JsonNode doc = Json.readTree(json);
        if (!doc.has("jobs")) {
            return json;
        }
        String needle = text.toLowerCase(Locale.ROOT);
        List<JsonNode> kept = new ArrayList<>();
        for (JsonNode j : doc.get("jobs")) {
            String hay = String.join("\n", j.path("name").asText(""), j.path("command").asText(""),
                    j.path("submitter").asText(""), j.path("node").asText(""), j.path("tags").toString());
            if (hay.toLowerCase(Locale.ROOT).contains(needle) && (limit == 0 || kept.size() < limit)) {
                kept.add(j);
            }
        }
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("jobs", kept);
        out.put("limit", limit);
        out.put("truncated", limit > 0 && kept.size() == limit);
        return Json.pretty(out);
    }
}
