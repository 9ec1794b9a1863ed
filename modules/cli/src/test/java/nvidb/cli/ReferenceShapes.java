package nvidb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The reference's JSON examples ({@code reference-json/examples.txt}, copied from
 * reference-cli.md) and the one rule ours must keep with each: every key path of the reference
 * document exists in ours with the same JSON type; extra keys are ours to add.
 *
 * <ul>
 *   <li>An object: each of its keys is in ours, and conforms. A key {@code "…"} names a shape
 *       (a capitalised example, "Job") the object must conform to as well.</li>
 *   <li>An array: ours is an array; when the reference's has items, ours must have some too
 *       (else nothing was compared), and each of ours conforms to the reference item at the same
 *       place, or its last. Inside a named shape an empty array of ours is accepted: the shape's
 *       own example is checked where it stands.</li>
 *   <li>null: the key must exist; the spec writes null where the type is "X or null".</li>
 *   <li>A string, number or boolean: ours has the same type (all numbers are one type: JSON has one).</li>
 * </ul>
 */
final class ReferenceShapes {
    private static final String SHAPE = "…";

    private final Map<String, JsonNode> examples;

    private ReferenceShapes(Map<String, JsonNode> examples) {
        this.examples = examples;
    }

    static ReferenceShapes load() {
        try (InputStream in = ReferenceShapes.class.getResourceAsStream("/reference-json/examples.txt")) {
            Objects.requireNonNull(in, "reference-json/examples.txt on the test class path");
            return new ReferenceShapes(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, JsonNode> parse(String text) throws IOException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        String name = null;
        StringBuilder doc = new StringBuilder();
        for (String line : (text + "\n== end").split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("== ")) {
                if (name != null) {
                    if (out.put(name, Cli.JSON.readTree(doc.toString())) != null) {
                        throw new IllegalStateException("example " + name + " twice");
                    }
                }
                name = line.substring(3).strip().split("\\s+")[0];
                doc.setLength(0);
            } else {
                doc.append(line).append('\n');
            }
        }
        return out;
    }

    /** The names of the examples of commands (a capitalised name is a shape other examples use). */
    List<String> commandExamples() {
        return examples.keySet().stream().filter(n -> !Character.isUpperCase(n.charAt(0))).toList();
    }

    /** Where {@code ours} differs from the example {@code name}: one line per difference, none when it conforms. */
    List<String> differences(String name, JsonNode ours) {
        List<String> out = new ArrayList<>();
        compare(example(name), ours, name, false, out);
        return out;
    }

    private JsonNode example(String name) {
        JsonNode e = examples.get(name);
        if (e == null) {
            throw new IllegalArgumentException("no reference example " + name + " (have " + examples.keySet() + ")");
        }
        return e;
    }

    private void compare(JsonNode ref, JsonNode ours, String path, boolean inShape, List<String> out) {
        if (ref.isNull()) {
            if (ours == null || ours.isMissingNode()) {
                out.add(path + ": missing");
            }
            return;
        }
        if (ours == null || ours.isMissingNode()) {
            out.add(path + ": missing (reference: " + describe(ref) + ")");
            return;
        }
        if (type(ref) != type(ours)) {
            out.add(path + ": " + describe(ours) + " where the reference has " + describe(ref));
            return;
        }
        if (ref.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = ref.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().equals(SHAPE)) {
                    compare(example(e.getValue().asText()), ours, path + "<" + e.getValue().asText() + ">", true, out);
                } else {
                    compare(e.getValue(), ours.get(e.getKey()), path + "." + e.getKey(), inShape, out);
                }
            }
        } else if (ref.isArray() && !ref.isEmpty()) {
            if (ours.isEmpty() && !inShape) {
                out.add(path + ": [] where the reference has items; the situation must produce some to compare");
            }
            for (int i = 0; i < ours.size(); i++) {
                compare(ref.get(Math.min(i, ref.size() - 1)), ours.get(i), path + "[" + i + "]", inShape, out);
            }
        }
    }

    private static JsonNodeType type(JsonNode n) {
        return n.getNodeType() == JsonNodeType.BINARY ? JsonNodeType.STRING : n.getNodeType();
    }

    private static String describe(JsonNode n) {
        String text = n.toString();
        return n.getNodeType().name().toLowerCase() + " " + (text.length() > 60 ? text.substring(0, 60) + "…" : text);
    }
}
