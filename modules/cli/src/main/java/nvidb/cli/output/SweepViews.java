package nvidb.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Json;
import nvidb.core.api.Sweeps;
import nvidb.core.api.Times;

/** Sweeps as {@code --json} prints them, as tables, and as CSV and JSON Lines for {@code sweep export}. */
public final class SweepViews {
    private SweepViews() {
    }

    public static ObjectNode sweep(Sweeps.Sweep s) {
        ObjectNode o = Output.object();
        o.put("id", s.id());
        o.put("name", s.name());
        o.put("command", s.command());
        ArrayNode params = o.putArray("params");
        s.params().forEach(params::add);
        o.set("spec", Views.parsed(Json.write(s.spec())));
        o.put("max_parallel", s.maxParallel());
        o.put("submitter", s.submitter());
        o.put("idempotency_key", s.idempotencyKey());
        o.put("created_at", Times.iso(s.createdAt()));
        return o;
    }

    public static ObjectNode summary(Sweeps.Summary s, Instant now) {
        ObjectNode o = sweep(s.sweep());
        o.put("runs", s.runs());
        ObjectNode states = o.putObject("states");
        s.states().forEach(states::put);
        o.put("age_s", s.sweep().createdAt() == null ? null
                : Math.max(0, java.time.Duration.between(s.sweep().createdAt(), now).toSeconds()));
        return o;
    }

    /** One expanded run, as a submit or a dry run prints it. */
    public static ObjectNode run(Sweeps.Run r) {
        ObjectNode o = Output.object();
        o.put("index", r.index());
        o.put("job_id", r.jobId());
        o.put("name", r.name());
        o.set("params", params(r.params()));
        o.put("command", r.command());
        return o;
    }

    private static ObjectNode params(Map<String, String> params) {
        ObjectNode p = Output.object();
        params.forEach(p::put);
        return p;
    }

    /** One row of {@code sweep show}: index, job, parameters, state, exit code, duration, status line, metrics. */
    public static ObjectNode row(Sweeps.Row r, Integer best, Instant now) {
        ObjectNode o = Output.object();
        Sweeps.RunStatus j = r.status();
        o.put("index", r.run().index());
        o.put("job_id", r.run().jobId());
        o.put("name", r.run().name());
        o.set("params", params(r.run().params()));
        o.put("state", j.state());
        o.put("exit_code", j.exitCode());
        Double elapsed = j.elapsedSeconds(now);
        o.put("elapsed_s", elapsed == null ? null : Math.round(elapsed * 10) / 10.0);
        o.put("progress", j.progress());
        ObjectNode m = o.putObject("metrics");
        r.metrics().forEach(m::put);
        o.set("result", Views.parsed(j.resultJson()));
        o.put("best", best != null && best == r.run().index());
        return o;
    }

    /** {@code sweep show --json}: the summary's keys, then the rows, each printed as it is made. */
    public static void detail(StreamedDocument doc, Sweeps.Detail d, int limit, Instant now) {
        summary(d.summary(), now).properties().forEach(e -> doc.field(e.getKey(), e.getValue()));
        ArrayNode cols = Output.array();
        d.columns().forEach(cols::add);
        doc.field("metric_columns", cols);
        doc.field("metric", d.metric());
        doc.field("best_index", d.best() == null ? null : com.fasterxml.jackson.databind.node.IntNode.valueOf(d.best()));
        doc.array("rows", each -> limited(d.rows(), limit).forEach(r -> each.accept(row(r, d.best(), now))));
        doc.end();
    }

    private static <T> List<T> limited(List<T> rows, int limit) {
        return limit > 0 && rows.size() > limit ? rows.subList(0, limit) : rows;
    }

    /** {@code sweep ls}: id, name, runs, counts by state, age. */
    public static String table(List<Sweeps.Summary> sweeps, Instant now) {
        Table t = new Table("ID", "NAME", "RUNS", "STATES", "MAX", "AGE", "COMMAND");
        for (Sweeps.Summary s : sweeps) {
            t.row(s.sweep().id(), Table.clip(s.sweep().name(), 24), s.runs(), states(s.states()),
                    s.sweep().maxParallel() == null ? "-" : s.sweep().maxParallel(),
                    Times.duration(s.sweep().createdAt() == null ? null
                            : (double) java.time.Duration.between(s.sweep().createdAt(), now).toSeconds()),
                    Table.clip(s.sweep().command(), 40));
        }
        return t.render("");
    }

    /** {@code completed=3 running=2}: the states present, in lifecycle order. */
    public static String states(Map<String, Integer> states) {
        List<String> parts = new ArrayList<>();
        for (String s : List.of("running", "pending", "held", "completed", "failed", "timeout", "lost", "cancelled",
                "purged")) {
            Integer n = states.get(s);
            if (n != null && n > 0) {
                parts.add(s + "=" + n);
            }
        }
        return parts.isEmpty() ? "-" : String.join(" ", parts);
    }

    /** {@code sweep show}: a heading line, then one row a run; the best run marked {@code *}. */
    public static String detailTable(Sweeps.Detail d, int limit, Instant now) {
        Sweeps.Sweep s = d.summary().sweep();
        List<String> headers = new ArrayList<>(List.of("", "IDX", "JOB"));
        headers.addAll(s.params());
        headers.addAll(List.of("STATE", "RC", "ELAPSED", "STATUS"));
        headers.addAll(d.columns());
        Table t = new Table(headers.toArray(String[]::new));
        for (Sweeps.Row r : limited(d.rows(), limit)) {
            Sweeps.RunStatus j = r.status();
            List<Object> cells = new ArrayList<>();
            cells.add(d.best() != null && d.best() == r.run().index() ? "*" : "");
            cells.add(r.run().index());
            cells.add(r.run().jobId());
            for (String p : s.params()) {
                cells.add(Table.clip(r.run().params().getOrDefault(p, "-"), 16));
            }
            cells.add(j.state());
            cells.add(j.exitCode() == null ? "-" : j.exitCode());
            cells.add(Times.duration(j.elapsedSeconds(now)));
            cells.add(j.progress() == null ? "-" : Table.clip(j.progress(), 30));
            for (String c : d.columns()) {
                Double v = r.metrics().get(c);
                cells.add(v == null ? "" : number(v));
            }
            t.row(cells.toArray());
        }
        String head = "sweep " + s.id() + " " + s.name() + ": " + d.summary().runs() + " runs, "
                + states(d.summary().states()) + (s.maxParallel() == null ? "" : ", at most " + s.maxParallel() + " at once");
        String best = d.metric() == null ? "" : d.best() == null ? "\nno run has " + d.metric() + " in its result yet"
                : "\nbest by " + d.metric() + ": run " + d.best();
        return head + best + "\n" + t.render("");
    }

    /** A number as short as it reads: whole numbers without a fraction. */
    public static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return String.valueOf(v);
    }

    /** The runs of a dry run or a submit as a table. */
    public static String runTable(List<Sweeps.Run> runs, List<String> params) {
        List<String> headers = new ArrayList<>(List.of("IDX", "JOB", "NAME"));
        headers.addAll(params);
        headers.add("COMMAND");
        Table t = new Table(headers.toArray(String[]::new));
        for (Sweeps.Run r : runs) {
            List<Object> cells = new ArrayList<>(List.of(r.index(), r.jobId() == null ? "-" : r.jobId(),
                    Table.clip(r.name() == null ? "-" : r.name(), 24)));
            for (String p : params) {
                cells.add(Table.clip(r.params().getOrDefault(p, "-"), 16));
            }
            cells.add(Table.clip(r.command() == null ? "-" : r.command(), 60));
            t.row(cells.toArray());
        }
        return t.render("");
    }
}
