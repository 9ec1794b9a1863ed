package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.History;

/**
 * What the jobs used ({@code nvidb queue usage}, the web's usage table, {@code /metrics}): each run
 * clipped to a window of time and summed by user, sweep, node or name. A job counts when it ran in
 * the window: started, and finished inside or after it, or still running (counted up to the
 * window's end). Its GPU-seconds and VRAM-seconds are exact for the part inside the window; its
 * metered energy and idle time (schema 12, UsageWatch) are totals of the whole run, and a window
 * that cuts the run takes the same fraction of them as of its running time.
 */
public final class AccountingRepository {
    /**
     * ?1 is the window's start, ?2 its end, in epoch seconds; ?3 and ?4 the same as the stored text
     * (ISO-8601 to the second, one form, so it compares as text: the jobs that ended before the
     * window or started after it are passed over without reading their times). unixepoch() reads a
     * stored time as epoch seconds, the costly part, so it runs only for the jobs that are left. A
     * running job ends at the window's end.
     */
    private static final String USAGE = """
            WITH ran AS (
                SELECT %s AS key, j.gpus, j.vram_mb, j.peak_vram_mb, j.util_samples, j.idle_gpu_s, j.energy_j,
                       unixepoch(j.started_at) AS began, COALESCE(unixepoch(j.finished_at), ?2) AS ended
                FROM jobs j %s
                WHERE j.started_at IS NOT NULL AND (j.finished_at IS NOT NULL OR j.state = 'running')
                  AND j.started_at <= ?4 AND (j.finished_at IS NULL OR j.finished_at >= ?3)
            ), inside AS (
                SELECT *, MAX(0, MIN(ended, ?2) - MAX(began, ?1)) AS inside_s,
                       CASE WHEN ended > began
                            THEN MAX(0, MIN(ended, ?2) - MAX(began, ?1)) * 1.0 / (ended - began)
                            ELSE 1.0 END AS fraction
                FROM ran WHERE began <= ?2 AND ended >= ?1
            )
            SELECT key, COUNT(*) AS jobs,
                   TOTAL(gpus * inside_s) AS gpu_s,
                   TOTAL(vram_mb * gpus * inside_s) AS vram_mb_s,
                   SUM(peak_vram_mb * gpus * inside_s) AS peak_mb_s,
                   SUM(CASE WHEN util_samples > 0 THEN idle_gpu_s * fraction END) AS idle_gpu_s,
                   SUM(energy_j * fraction) AS energy_j
            FROM inside GROUP BY key ORDER BY gpu_s DESC, key
            """;

    private final Database db;

    AccountingRepository(Database db) {
        this.db = db;
    }

    /**
     * The usage of the jobs that ran between {@code sinceS} and {@code untilS} (epoch seconds), a row
     * per value of {@code by}, the most GPU-hours first. SUM leaves a figure NULL where no job of
     * the row has it measured; TOTAL makes the always-known ones 0.
     */
    public List<History.Usage> usage(History.UsageKey by, long sinceS, long untilS) {
        String sql = USAGE.formatted(keyColumn(by), by == History.UsageKey.SWEEP
                ? "LEFT JOIN sweep_runs r ON r.job_id = j.id" : "");
        return Rows.sql(() -> {
            List<History.Usage> out = new ArrayList<>();
            try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
                Rows.bind(ps, sinceS, untilS, Instant.ofEpochSecond(sinceS), Instant.ofEpochSecond(untilS));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new History.Usage(rs.getString("key"), rs.getLong("jobs"), rs.getDouble("gpu_s"),
                                rs.getDouble("vram_mb_s"), Rows.doubleOrNull(rs, "peak_mb_s"),
                                Rows.doubleOrNull(rs, "idle_gpu_s"), Rows.doubleOrNull(rs, "energy_j")));
                    }
                }
            }
            return out;
        });
    }

    /** The column a grouping reads; a sweep is named by its id. */
    private static String keyColumn(History.UsageKey by) {
        if (by == History.UsageKey.SWEEP) {
            return "CAST(r.sweep_id AS TEXT)";
        }
        if (by == History.UsageKey.NODE) {
            return "j.node";
        }
        if (by == History.UsageKey.NAME) {
            return "j.name";
        }
        return "j.user";
    }
}
