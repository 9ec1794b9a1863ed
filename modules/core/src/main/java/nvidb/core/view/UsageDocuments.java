package nvidb.core.view;

import java.util.List;

/** {@code queue usage --json} (and the web's {@code GET /api/v1/usage}): what the jobs used in a window. */
public final class UsageDocuments {
    private UsageDocuments() {
    }

    /**
     * The window and its rows, the most GPU-hours first, with their total.
     *
     * @param since the window's start (ISO-8601 UTC), null with {@code --since all}
     * @param until its end: now
     * @param by    user, sweep, node or name: what each row's {@code key} is
     */
    public record Report(String since, String until, String by, List<Row> rows, Row total) {
    }

    /**
     * One group's figures, each rounded to 6 decimal places. VRAM in GiB-hours: {@code vram_mb} ×
     * GPUs × hours reserved; the peak the same with the job's measured per-GPU peak. Null where no
     * job of the row had the figure measured.
     *
     * @param key the user, sweep id, node or name (null: jobs without one); null in the total
     */
    public record Row(String key, long jobs, double gpuHours, double vramGibHoursReserved, Double vramGibHoursPeak,
                      Double idleGpuHours, Double energyKwh) {
    }
}
