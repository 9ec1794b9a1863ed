package nvidb.core.app;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import nvidb.core.api.Durations;
import nvidb.core.api.History;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import nvidb.core.view.UsageDocuments;

/**
 * {@code queue usage}: what the jobs that ran in a window used, grouped by user, sweep, node or
 * name, with a total. The figures come from the store in seconds, MiB-seconds and joules; here they
 * become hours, GiB-hours and kWh. The window is {@code --since} up to now.
 */
public final class UsageReport {
    /** What {@code --since} takes when a front end gives none. */
    public static final String DEFAULT_SINCE = "7d";

    /** The spans {@code --since} takes (whole days, hours or minutes), parsed by {@link Durations}. */
    private static final Pattern DURATION = Pattern.compile("(\\d{1,6})([dhm])");
    private static final String SINCE_FORMS = "a duration such as 7d, 12h or 30m, an ISO date or time"
            + " (2026-12-01, 2026-12-01T09:00:00Z), or all";

    private UsageReport() {
    }

    /** GPUs held now and GPU-seconds used ever, per user ({@code /metrics}). */
    public record UserLoad(String user, int runningGpus, double gpuSeconds) {
    }

    /** Refuses a {@code --since} or {@code --by} that does not parse (a usage error naming the forms), before any pass. */
    public static void check(String since, String by) {
        History.UsageKey.of(by == null ? "user" : by);
        since(since == null ? DEFAULT_SINCE : since, Instant.now());
    }

    static UsageDocuments.Report build(History history, String since, String by, Instant now) {
        History.UsageKey key = History.UsageKey.of(by == null ? "user" : by);
        Instant from = since(since == null ? DEFAULT_SINCE : since, now);
        List<History.Usage> groups = history.usage(key, from == null ? Instant.EPOCH : from, now);
        List<UsageDocuments.Row> rows = new ArrayList<>();
        for (History.Usage u : groups) {
            rows.add(row(u));
        }
        return new UsageDocuments.Report(Times.iso(from), Times.iso(now), key.label(), rows, row(total(groups)));
    }

    static List<UserLoad> users(History history, Instant now) {
        List<UserLoad> out = new ArrayList<>();
        java.util.Map<String, Integer> running = new java.util.HashMap<>();
        for (History.UserGpus g : history.runningGpusByUser()) {
            running.put(g.user(), g.runningGpus());
        }
        for (History.Usage u : history.usage(History.UsageKey.USER, Instant.EPOCH, now)) {
            Integer gpus = running.remove(u.key());
            out.add(new UserLoad(u.key(), gpus == null ? 0 : gpus, u.gpuSeconds()));
        }
        running.forEach((user, gpus) -> out.add(new UserLoad(user, gpus, 0)));
        return out;
    }

    /**
     * The window's start: {@code all} (null: every job), a duration back from {@code now}, or an
     * ISO date (its midnight UTC) or time; anything else is a usage error naming the forms.
     */
    static Instant since(String text, Instant now) {
        String t = text.strip();
        if (t.equals("all")) {
            return null;
        }
        Instant from;
        if (DURATION.matcher(t).matches()) {
            from = now.minus(Durations.parse(t));
        } else {
            from = t.length() == 10 ? date(t) : Times.parse(t);
        }
        if (from == null) {
            throw NvidbException.usage("--since takes " + SINCE_FORMS + ", not '" + text + "'");
        }
        if (from.isAfter(now)) {
            throw NvidbException.usage("--since " + text + " is in the future; it takes " + SINCE_FORMS);
        }
        return from;
    }

    private static Instant date(String text) {
        try {
            return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static History.Usage total(List<History.Usage> groups) {
        long jobs = 0;
        double gpu = 0;
        double reserved = 0;
        Double peak = null;
        Double idle = null;
        Double energy = null;
        for (History.Usage u : groups) {
            jobs += u.jobs();
            gpu += u.gpuSeconds();
            reserved += u.vramMbSecondsReserved();
            peak = plus(peak, u.vramMbSecondsPeak());
            idle = plus(idle, u.idleGpuSeconds());
            energy = plus(energy, u.energyJoules());
        }
        return new History.Usage(null, jobs, gpu, reserved, peak, idle, energy);
    }

    /** Null plus null is null (nothing measured); a measured figure counts. */
    private static Double plus(Double sum, Double value) {
        if (value == null) {
            return sum;
        }
        return sum == null ? value : Double.valueOf(sum + value);
    }

    private static UsageDocuments.Row row(History.Usage u) {
        return new UsageDocuments.Row(u.key(), u.jobs(), round(u.gpuSeconds() / 3600), round(gibHours(u.vramMbSecondsReserved())),
                u.vramMbSecondsPeak() == null ? null : round(gibHours(u.vramMbSecondsPeak())),
                u.idleGpuSeconds() == null ? null : round(u.idleGpuSeconds() / 3600),
                u.energyJoules() == null ? null : round(u.energyJoules() / 3_600_000));
    }

    private static double gibHours(double mbSeconds) {
        return mbSeconds / 1024 / 3600;
    }

    /** To 6 decimal places: a milliwatt-hour, a few milliseconds of a GPU. */
    private static double round(double value) {
        return Math.round(value * 1_000_000) / 1_000_000.0;
    }
}
