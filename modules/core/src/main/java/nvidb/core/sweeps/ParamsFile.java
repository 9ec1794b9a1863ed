package nvidb.core.sweeps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;

/**
 * {@code --params-file}: one JSON object a line (blank lines skipped), every line naming the same
 * parameters. A value is a string, a number or a boolean; a number is substituted as written in
 * plain notation ({@code 1e-3} as {@code 0.001}).
 */
record ParamsFile(List<String> names, List<Map<String, String>> runs) {

    static ParamsFile parse(List<String> lines, String source) {
        List<String> names = null;
        List<Map<String, String>> runs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = source + " line " + (i + 1);
            JsonNode node;
            try {
                node = Json.readTree(line);
            } catch (JsonProcessingException e) {
                throw NvidbException.usage(where + " is not JSON: " + e.getOriginalMessage());
            }
            if (node == null || !node.isObject() || node.isEmpty()) {
                throw NvidbException.usage(where + " must be a JSON object of parameters, e.g. {\"lr\": 0.001, \"seed\": 1}");
            }
            Map<String, String> run = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                run.put(f.getKey(), value(where, f.getKey(), f.getValue()));
            }
            if (names == null) {
                names = new ArrayList<>();
                for (String n : run.keySet()) {
                    SweepPlan.declare(names, n);
                }
            } else if (!run.keySet().equals(new java.util.HashSet<>(names))) {
                throw NvidbException.usage(where + " names " + String.join(", ", run.keySet())
                        + ", but the first line names " + String.join(", ", names) + ": every line names the same parameters");
            }
            runs.add(run);
        }
        if (names == null) {
            throw NvidbException.usage(source + " has no runs: write one JSON object a line");
        }
        return new ParamsFile(names, runs);
    }

    private static String value(String where, String name, JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isNumber()) {
            return v.isIntegralNumber() ? v.bigIntegerValue().toString() : v.decimalValue().stripTrailingZeros().toPlainString();
        }
        if (v.isBoolean()) {
            return String.valueOf(v.booleanValue());
        }
        throw NvidbException.usage(where + ": '" + name + "' is " + (v.isNull() ? "null" : v.isArray() ? "an array" : "an object")
                + "; a parameter is a string, a number or a boolean");
    }
}
