package nvidb.cli.output;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Sizes;
import nvidb.core.api.Sweeps;
import nvidb.core.api.Times;
import nvidb.core.app.SweepOperations;
import nvidb.core.view.SweepDocuments;

/** Sweeps as tables. */
public final class SweepViews {
    private SweepViews() {
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
        headers.addAll(List.of("STATE", "RC", "ELAPSED", "VRAM", "PEAK", "STATUS"));
        headers.addAll(d.columns());
        Table t = new Table(headers.toArray(String[]::new));
        for (Sweeps.Row r : SweepOperations.limited(d.rows(), limit)) {
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
            cells.add(j.vramMb() == null || j.vramMb() == 0 ? "-" : Sizes.format(j.vramMb()));
            cells.add(j.peakVramMb() == null ? "-" : Sizes.format((long) j.peakVramMb()));
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
    public static String runTable(List<SweepDocuments.Run> runs, List<String> params) {
        List<String> headers = new ArrayList<>(List.of("IDX", "JOB", "NAME"));
        headers.addAll(params);
        headers.add("COMMAND");
        Table t = new Table(headers.toArray(String[]::new));
        for (SweepDocuments.Run r : runs) {
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
