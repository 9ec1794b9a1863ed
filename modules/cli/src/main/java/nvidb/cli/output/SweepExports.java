package nvidb.cli.output;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.Json;
import nvidb.core.api.Sweeps;
import nvidb.core.view.SweepDocuments;

/** {@code sweep export}: CSV with one column per parameter and metric, or the rows of {@code sweep show --json} a line each. */
public final class SweepExports {
    private SweepExports() {
    }

    public static String csv(Sweeps.Detail d, Instant now) {
        List<String> params = d.summary().sweep().params();
        List<String> header = new ArrayList<>(List.of("index", "job_id", "name"));
        header.addAll(params);
        header.addAll(List.of("state", "exit_code", "elapsed_s", "progress"));
        header.addAll(d.columns());
        StringBuilder b = new StringBuilder();
        line(b, header);
        for (Sweeps.Row r : d.rows()) {
            Sweeps.RunStatus j = r.status();
            List<String> cells = new ArrayList<>();
            cells.add(String.valueOf(r.run().index()));
            cells.add(String.valueOf(r.run().jobId()));
            cells.add(r.run().name() == null ? "" : r.run().name());
            params.forEach(p -> cells.add(r.run().params().getOrDefault(p, "")));
            cells.add(j.state());
            cells.add(j.exitCode() == null ? "" : String.valueOf(j.exitCode()));
            Double elapsed = j.elapsedSeconds(now);
            cells.add(elapsed == null ? "" : String.valueOf(Math.round(elapsed * 10) / 10.0));
            cells.add(j.progress() == null ? "" : j.progress());
            for (String c : d.columns()) {
                Double v = r.metrics().get(c);
                cells.add(v == null ? "" : SweepViews.number(v));
            }
            line(b, cells);
        }
        return b.toString();
    }

    public static String jsonLines(Sweeps.Detail d, Instant now) {
        StringBuilder b = new StringBuilder();
        for (Sweeps.Row r : d.rows()) {
            b.append(Json.write(SweepDocuments.Row.of(r, d.best(), now))).append('\n');
        }
        return b.toString();
    }

    /** One CSV record: a field with a comma, quote or line break is quoted, its quotes doubled (RFC 4180). */
    static void line(StringBuilder b, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            if (i > 0) {
                b.append(',');
            }
            if (c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0 || c.indexOf('\r') >= 0) {
                b.append('"').append(c.replace("\"", "\"\"")).append('"');
            } else {
                b.append(c);
            }
        }
        b.append("\r\n");
    }
}
