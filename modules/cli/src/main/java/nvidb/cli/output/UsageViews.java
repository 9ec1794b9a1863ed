package nvidb.cli.output;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.view.UsageDocuments;

/** {@code queue usage} without {@code --json}: a table with its total, or CSV (a header, a row a group, the total last). */
public final class UsageViews {
    private static final String[] FIGURES = {"jobs", "gpu_hours", "vram_gib_hours_reserved", "vram_gib_hours_peak",
        "idle_gpu_hours", "energy_kwh"};

    private UsageViews() {
    }

    public static String table(UsageDocuments.Report r) {
        Table t = new Table(header(r.by()).toArray(String[]::new));
        for (UsageDocuments.Row row : r.rows()) {
            t.row(cells(row, row.key() == null ? "-" : row.key(), "-").toArray());
        }
        StringBuilder b = new StringBuilder();
        b.append("usage ").append(r.since() == null ? "of every job" : "since " + r.since()).append(" until ")
                .append(r.until()).append(", by ").append(r.by()).append('\n');
        if (t.isEmpty()) {
            return b.append("  no job ran in this window").toString();
        }
        t.row(cells(r.total(), "total", "-").toArray());
        return b.append(t.render("  ")).toString();
    }

    /** RFC 4180, the first column named after the grouping, empty cells where a figure was not measured. */
    public static String csv(UsageDocuments.Report r) {
        StringBuilder b = new StringBuilder();
        SweepExports.line(b, header(r.by()));
        for (UsageDocuments.Row row : r.rows()) {
            SweepExports.line(b, cells(row, row.key() == null ? "" : row.key(), ""));
        }
        SweepExports.line(b, cells(r.total(), "total", ""));
        return b.toString();
    }

    private static List<String> header(String by) {
        List<String> h = new ArrayList<>(List.of(by));
        h.addAll(List.of(FIGURES));
        return h;
    }

    private static List<String> cells(UsageDocuments.Row row, String key, String unmeasured) {
        List<String> c = new ArrayList<>();
        c.add(key);
        c.add(String.valueOf(row.jobs()));
        c.add(SweepViews.number(row.gpuHours()));
        c.add(SweepViews.number(row.vramGibHoursReserved()));
        c.add(row.vramGibHoursPeak() == null ? unmeasured : SweepViews.number(row.vramGibHoursPeak()));
        c.add(row.idleGpuHours() == null ? unmeasured : SweepViews.number(row.idleGpuHours()));
        c.add(row.energyKwh() == null ? unmeasured : SweepViews.number(row.energyKwh()));
        return c;
    }
}
