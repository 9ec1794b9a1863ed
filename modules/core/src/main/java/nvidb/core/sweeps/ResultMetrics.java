package nvidb.core.sweeps;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Json;
import nvidb.core.api.Sweeps;

/**
 * The numbers a run's {@code result.json} holds, by dotted path ({@code {"eval": {"loss": 0.3}}} is
 * {@code eval.loss}); strings, booleans, arrays and nulls are not compared, and a result that is
 * missing or not JSON has none: a run without results is shown empty, never an error.
 */
final class ResultMetrics {
    private ResultMetrics() {
    }

    static Map<String, Double> of(String resultJson) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (resultJson == null || resultJson.isBlank()) {
            return out;
        }
        // Read as tokens, not as a tree: sweep show reads one result a run, thousands of them.
        try (JsonParser p = Json.parser(resultJson)) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                object(p, "", out);
            }
        } catch (java.io.IOException e) {
            // not JSON (or cut short): the numbers read so far stand
        }
        return out;
    }

    private static void object(JsonParser p, String prefix, Map<String, Double> out) throws java.io.IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = prefix.isEmpty() ? p.currentName() : prefix + "." + p.currentName();
            JsonToken value = p.nextToken();
            if (value == JsonToken.START_OBJECT) {
                object(p, key, out);
            } else if (value == JsonToken.START_ARRAY) {
                p.skipChildren();
            } else if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
                out.put(key, p.getDoubleValue());
            }
        }
    }

    /**
     * The best row first (ties go to the lower index); then, with {@code sort}, the others that have
     * the metric from best to worst and those without it by index, else the others by index.
     */
    static List<Sweeps.Row> byMetric(List<Sweeps.Row> rows, String metric, boolean maximize, boolean sort) {
        Comparator<Sweeps.Row> byValue = Comparator.comparingDouble(r -> r.metrics().get(metric));
        if (maximize) {
            byValue = byValue.reversed();
        }
        List<Sweeps.Row> with = new ArrayList<>();
        List<Sweeps.Row> without = new ArrayList<>();
        for (Sweeps.Row r : rows) {
            Double v = r.metrics().get(metric);
            (v != null && !v.isNaN() ? with : without).add(r);
        }
        with.sort(byValue.thenComparingInt(r -> r.run().index()));
        if (sort || with.isEmpty()) {
            with.addAll(without);
            return with;
        }
        List<Sweeps.Row> out = new ArrayList<>(rows.size());
        out.add(with.getFirst());
        rows.stream().filter(r -> r != with.getFirst()).forEach(out::add);
        return out;
    }
}
