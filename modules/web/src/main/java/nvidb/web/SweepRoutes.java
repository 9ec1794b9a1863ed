package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;
import java.util.regex.Pattern;
import nvidb.core.api.Json;
import nvidb.core.view.SweepDocuments;

/**
 * {@code GET /api/v1/sweeps} and {@code GET /api/v1/sweeps/ID}: {@code sweep ls} and
 * {@code sweep show ID} through the application layer's sweeps group, called as the CLI's
 * commands call it, so each document is the one they print with {@code --json}. Show takes the
 * command's options as parameters: {@code metric=NAME}, {@code max} (or {@code min}),
 * {@code sort}, {@code limit=N}. Kept beside {@link Api}, which hands it every route under
 * {@code sweeps}.
 */
final class SweepRoutes {
    private static final Pattern ID = Pattern.compile("[0-9]{1,18}");
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");
    /** A result field is any key of a run's result.json (nested ones as a.b): printable, and not long. */
    private static final Pattern METRIC = Pattern.compile("[^\\p{Cntrl}]{1,128}");

    private SweepRoutes() {
    }

    /** Answers {@code sweeps} or {@code sweeps/ID} ({@code p}: the route's segments); false for any other route. */
    static boolean read(HttpExchange ex, Pool pool, String[] p, Map<String, String> q) throws IOException {
        if (!p[0].equals("sweeps") || p.length > 2) {
            return false;
        }
        Object document = p.length == 1 ? pool.with((app, c) -> app.sweeps().list(c)) : show(pool, p[1], q);
        Http.json(ex, 200, Json.pretty(document));
        return true;
    }

    /** As {@code sweep show ID [--metric NAME] [--min|--max] [--sort] [-n N]}, with the command's checks. */
    private static SweepDocuments.Shown show(Pool pool, String idText, Map<String, String> q) {
        long id = Long.parseLong(checked(idText, ID, "the sweep id", "a number"));
        String metric = q.containsKey("metric") ? checked(q.get("metric").strip(), METRIC, "metric", "a result field") : null;
        boolean max = q.containsKey("max");
        boolean sort = q.containsKey("sort");
        if (max && q.containsKey("min")) {
            throw new Http.BadRequest("min and max exclude each other: pick the direction in which the metric is better");
        }
        if ((max || sort || q.containsKey("min")) && metric == null) {
            throw new Http.BadRequest("min, max and sort order by a metric: add metric=NAME (a result field)");
        }
        int limit = Integer.parseInt(checked(q.getOrDefault("limit", "0"), COUNT, "limit", "a number of rows ≥ 0 (0: all)"));
        return pool.with((app, c) -> app.sweeps().show(c, id, metric, max, sort, limit));
    }

    private static String checked(String value, Pattern pattern, String what, String expected) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw new Http.BadRequest(what + " takes " + expected + ", not '" + value + "'");
        }
        return value;
    }
}
