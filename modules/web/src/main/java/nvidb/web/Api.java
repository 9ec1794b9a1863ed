package nvidb.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;
import nvidb.mcp.McpService;
import nvidb.core.api.Job;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.app.Acted;
import nvidb.core.app.Application;
import nvidb.core.app.StatusQuery;
import nvidb.core.view.JobView;

/**
 * {@code /api/v1/…}: each route is one operation of the application layer, so a document here is
 * the document the CLI's {@code --json} prints for the same operation, with the same checks; an
 * error's code becomes the HTTP status (usage 400, not found 404, conflict 409). Every value taken
 * from the request is checked against what the operation takes before it is passed on.
 */
final class Api {
    private static final Pattern ID = Pattern.compile("[0-9]{1,18}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._@-]{0,127}");
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");
    private static final Pattern PRIORITY = Pattern.compile("[+-]?[0-9]{1,9}");
    private static final List<String> STATES = List.of("pending", "running", "completed", "failed", "cancelled",
            "timeout", "lost");

    private final Pool pool;
    private final Submits submits;

    Api(Pool pool, McpService tools) {
        this.pool = pool;
        this.submits = new Submits(pool, tools);
    }

    Pool pool() {
        return pool;
    }

    void handle(HttpExchange ex, String route, boolean read) throws IOException {
        String[] p = route.split("/");
        if (!read && p.length == 1 && submits.serves(p[0])) {
            submits.post(ex, p[0]);
            return;
        }
        if (!(read ? read(ex, p, Http.query(ex)) : p.length == 3 && action(ex, p[0], p[1], p[2]))) {
            Http.error(ex, 404, ErrorCode.NOT_FOUND, "no route " + (read ? "GET" : "POST") + " /api/v1/" + route
                    + " (see docs/web-and-api.md)");
        }
    }

    /** Answers a read route; false where none matches. */
    private boolean read(HttpExchange ex, String[] p, Map<String, String> q) throws IOException {
        if (p[0].equals("sweeps")) {
            return SweepRoutes.read(ex, pool, p, q);
        }
        if (p.length == 1) {
            switch (p[0]) {
                case "status" -> streamed(ex, (app, c) -> app.status(c, StatusQuery.standard(false, null)));
                case "jobs" -> jobs(ex, q);
                case "events" -> events(ex, q);
                case "alerts" -> answer(ex, pool.with((app, c) -> app.alerts(c, q.containsKey("all"), 50)));
                case "lanes" -> answer(ex, pool.with((app, c) -> app.lanes(c, null)));
                case "nodes" -> answer(ex, pool.with((app, c) -> app.nodes(c, false)));
                case "history" -> history(ex, q);
                // queue usage --json's document; a since or by that does not parse is a usage error (400).
                case "usage" -> answer(ex, pool.with((app, c) -> app.usage(c, q.get("since"), q.get("by"))));
                default -> {
                    return false;
                }
            }
            return true;
        }
        if (p.length == 2 && p[0].equals("jobs")) {
            long id = id(p[1]);
            answer(ex, pool.with((app, c) -> app.job(c, id, null)));
            return true;
        }
        if (p.length == 3 && p[0].equals("jobs") && p[2].equals("logs")) {
            logs(ex, id(p[1]), q);
            return true;
        }
        return false;
    }

    /** A document written whole, with 200. */
    private static void answer(HttpExchange ex, Object document) throws IOException {
        Http.json(ex, 200, Json.pretty(document));
    }

    /** An action's document, with 200 or the status its most serious outcome says. */
    private static void acted(HttpExchange ex, Acted<?> acted) throws IOException {
        Http.json(ex, acted.ok() ? 200 : Http.status(acted.code().label()), Json.pretty(acted.document()));
    }

    /**
     * A document whose jobs are read while it is written into a {@link SpillingBody}, so a listing
     * of 10,000 jobs is never held whole; the queue stays borrowed while it is written. A refusal
     * before the body spilled is answered with its own status; a failure after that leaves the
     * document unfinished and the error document follows, as on the command line.
     */
    private void streamed(HttpExchange ex, BiFunction<Application, Caller, Object> operation) throws IOException {
        SpillingBody body = new SpillingBody(ex);
        try {
            pool.with((app, c) -> {
                try {
                    JsonGenerator g = Json.generator(body, true);
                    Json.write(g, operation.apply(app, c));
                    g.flush();
                    body.write('\n');
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (NvidbException e) {
            body.fail(e.code(), e.getMessage());
            return;
        }
        body.finish();
    }

    /** {@code state=pending,running|active|held}, {@code limit=N}, {@code q=TEXT}. */
    private void jobs(HttpExchange ex, Map<String, String> q) throws IOException {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        boolean held = false;
        boolean active = false;
        String states = q.getOrDefault("state", "");
        for (String s : states.isEmpty() ? new String[0] : states.split(",")) {
            String state = s.strip().toLowerCase(Locale.ROOT);
            if (state.equals("active")) {
                active = true;
            } else if (state.equals("held")) {
                held = true;
            } else if (STATES.contains(state)) {
                wanted.add(JobState.fromLabel(state));
            } else {
                throw new Http.BadRequest("state takes " + String.join(", ", STATES) + ", active or held, not '" + s + "'");
            }
        }
        if (active) {
            // As job ls --active: pending and running, whatever other states were named.
            wanted = EnumSet.of(JobState.PENDING, JobState.RUNNING);
        }
        int limit = limit(q);
        if (!q.containsKey("q")) {
            JobQuery query = new JobQuery(wanted, held, null, null, limit);
            streamed(ex, (app, c) -> app.jobs(c, query));
            return;
        }
        // A text filter looks through every job the states allow; the limit applies to what matches.
        JobQuery all = new JobQuery(wanted, held, null, null, 0);
        List<Job> jobs = pool.with((app, c) -> app.jobList(c, all));
        answer(ex, filtered(jobs, q.get("q"), limit));
    }

    private static int limit(Map<String, String> q) {
        String limit = q.getOrDefault("limit", "100");
        return Integer.parseInt(checked(limit, COUNT, "limit", "a number of jobs ≥ 0 (0: all)"));
    }

    private void events(HttpExchange ex, Map<String, String> q) throws IOException {
        Long since = q.containsKey("since") ? Long.parseLong(checked(q.get("since"), ID, "since", "an event id ≥ 0")) : null;
        Long job = q.containsKey("job") ? id(q.get("job")) : null;
        int number = q.containsKey("limit")
                ? Integer.parseInt(checked(q.get("limit"), COUNT, "limit", "a number of events ≥ 1")) : 50;
        answer(ex, pool.with((app, c) -> app.events(c, since, job, number)));
    }

    private void logs(HttpExchange ex, long id, Map<String, String> q) throws IOException {
        String stream = q.getOrDefault("stream", "stdout");
        if (!stream.equals("stdout") && !stream.equals("stderr")) {
            throw new Http.BadRequest("stream is stdout or stderr, not '" + stream + "'");
        }
        int tail = Integer.parseInt(checked(q.getOrDefault("tail", "200"), COUNT, "tail", "a number of lines"));
        answer(ex, pool.with((app, c) -> app.logChunk(c, id, stream.equals("stderr"), tail)));
    }

    private void history(HttpExchange ex, Map<String, String> q) throws IOException {
        String range = q.getOrDefault("range", "1h");
        String gpu = q.get("gpu");
        if (gpu != null) {
            int colon = gpu.lastIndexOf(':');
            if (colon <= 0 || !NAME.matcher(gpu.substring(0, colon)).matches()
                    || !COUNT.matcher(gpu.substring(colon + 1)).matches()) {
                throw new Http.BadRequest("gpu takes NODE:INDEX, such as box406:2, not '" + gpu + "'");
            }
        }
        if (!List.of("1h", "1d", "7d").contains(range)) {
            throw new Http.BadRequest("range is 1h, 1d or 7d, not '" + range + "'");
        }
        answer(ex, pool.with((app, c) -> app.history(c, gpu, range).document()));
    }

    /** {@code jobs/ID/cancel|requeue|priority}, {@code alerts/ID/ack}, {@code nodes/NAME/drain|resume}; false: no such route. */
    private boolean action(HttpExchange ex, String kind, String subject, String verb) throws IOException {
        String body = Http.body(ex);
        switch (kind + "/" + verb) {
            case "jobs/cancel" -> {
                List<Long> ids = List.of(id(subject));
                acted(ex, pool.with((app, c) -> app.cancel(c, ids)));
            }
            case "jobs/requeue" -> {
                List<Long> ids = List.of(id(subject));
                acted(ex, pool.with((app, c) -> app.requeue(c, ids, TickMode.AUTO)));
            }
            case "jobs/priority" -> priority(ex, id(subject), body);
            case "alerts/ack" -> {
                List<Long> ids = List.of(id(subject));
                acted(ex, pool.with((app, c) -> app.ack(c, ids, false)));
            }
            case "nodes/drain", "nodes/resume" -> {
                String node = checked(subject, NAME, "the node", "a node name");
                answer(ex, pool.with((app, c) -> app.drain(c, node, verb.equals("drain"))));
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A body {@code {"value": "+1"}} (set or adjust), or {@code {"up": N}} / {@code {"down": N}} (move). */
    private void priority(HttpExchange ex, long id, String body) throws IOException {
        JsonNode o;
        try {
            o = Json.readTree(body.isBlank() ? "{}" : body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Http.BadRequest("the body is not JSON: " + e.getOriginalMessage());
        }
        for (String key : List.of("up", "down")) {
            if (o.has(key)) {
                int slots = Integer.parseInt(checked(o.get(key).asText(), COUNT, key, "a positive number of slots"));
                if (slots <= 0) {
                    throw NvidbException.usage("--up and --down take a positive number of slots");
                }
                int signed = key.equals("up") ? slots : -slots;
                answer(ex, pool.with((app, c) -> app.movePriority(c, id, signed)));
                return;
            }
        }
        if (o.hasNonNull("value")) {
            String value = checked(o.get("value").asText(), PRIORITY, "value", "a priority such as 5, +1 or -2");
            answer(ex, pool.with((app, c) -> app.priority(c, id, value)));
            return;
        }
        throw new Http.BadRequest("the body is {\"value\": \"5\" | \"+1\" | \"-2\"} or {\"up\": N} or {\"down\": N}");
    }

    private static long id(String text) {
        return Long.parseLong(checked(text, ID, "the job id", "a number"));
    }

    private static String checked(String value, Pattern pattern, String what, String expected) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw new Http.BadRequest(what + " takes " + expected + ", not '" + value + "'");
        }
        return value;
    }

    /** The jobs whose name, command, submitter, node or tags hold {@code text}, as {@code job ls} shows them. */
    private static Map<String, Object> filtered(List<Job> jobs, String text, int limit) {
        String needle = text.toLowerCase(Locale.ROOT);
        java.time.Instant now = java.time.Instant.now();
        List<JobView> kept = new ArrayList<>();
        for (Job j : jobs) {
            JobView v = JobView.of(j, now);
            String hay = String.join("\n", Objects.toString(v.name(), ""), Objects.toString(v.command(), ""),
                    Objects.toString(v.submitter(), ""), Objects.toString(v.node(), ""), Json.write(v.tags()));
            if (hay.toLowerCase(Locale.ROOT).contains(needle) && (limit == 0 || kept.size() < limit)) {
                kept.add(v);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("jobs", kept);
        out.put("limit", limit);
        out.put("truncated", limit > 0 && kept.size() == limit);
        return out;
    }
}
