package nvidb.core.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.NumericNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.node.ValueNode;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;

/**
 * The part of {@link Json} that runs on jackson-core's streaming parser and generator alone, so
 * that an ordinary command never builds databind's mapper: trees and plain values of the usual
 * kinds, read and written exactly as the mapper reads and writes them under its default features.
 * Each method says when it cannot (false or null), and {@link Json} then asks the mapper.
 * JsonCodecPropertyTest holds this to the mapper on random documents.
 *
 * <p>If chains, not pattern switches: each pattern switch spins a class at run time
 * (SwitchBootstraps), which the AOT cache does not keep.
 */
final class JsonStreams {
    private JsonStreams() {
    }

    /**
     * Writes {@code value} as the mapper does: null, strings, booleans, ints, longs, doubles,
     * trees of the standard node types, and java.util maps (string keys) and collections of
     * these. False, with part of it written, for anything else.
     */
    static boolean writeValue(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Integer n) {
            g.writeNumber(n);
        } else if (value instanceof Long n) {
            g.writeNumber(n);
        } else if (value instanceof Double n) {
            g.writeNumber(n);
        } else if (value instanceof JsonNode n) {
            return writeTree(g, n);
        } else if (value instanceof Map<?, ?> m && isJdkType(m)) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    return false;
                }
                g.writeFieldName(key);
                if (!writeValue(g, e.getValue())) {
                    return false;
                }
            }
            g.writeEndObject();
        } else if (value instanceof Collection<?> c && isJdkType(c)) {
            g.writeStartArray();
            for (Object o : c) {
                if (!writeValue(g, o)) {
                    return false;
                }
            }
            g.writeEndArray();
        } else {
            return false;
        }
        return true;
    }

    /** java.util's own maps and collections: no annotation or custom serialiser applies to them. */
    private static boolean isJdkType(Object o) {
        return o.getClass().getName().startsWith("java.util.");
    }

    /**
     * Writes a tree of the standard node types as their own {@code serialize} methods do under a
     * default mapper; false for any other node (POJO, binary, raw, missing).
     */
    static boolean writeTree(JsonGenerator g, JsonNode node) throws IOException {
        if (node instanceof ObjectNode o) {
            g.writeStartObject(o, o.size());
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                g.writeFieldName(e.getKey());
                if (!writeTree(g, e.getValue())) {
                    return false;
                }
            }
            g.writeEndObject();
        } else if (node instanceof ArrayNode a) {
            g.writeStartArray(a, a.size());
            for (JsonNode child : a) {
                if (!writeTree(g, child)) {
                    return false;
                }
            }
            g.writeEndArray();
        } else if (node instanceof TextNode || node instanceof NumericNode || node instanceof BooleanNode) {
            // These write their value alone; none of them consults the provider.
            ((ValueNode) node).serialize(g, null);
        } else if (node instanceof NullNode) {
            g.writeNull();
        } else {
            return false;
        }
        return true;
    }

    /**
     * The tree of {@code text} when it is one JSON value, alone, of the usual kinds; null for
     * anything else (a repeated key, a number beyond a long or a double, an error), which the
     * mapper reads in its own way.
     */
    static JsonNode parseTree(String text) {
        try (JsonParser p = Json.parser(text)) {
            JsonToken t = p.nextToken();
            JsonNode node = t == null ? null : treeNode(p, t);
            return node != null && p.nextToken() == null ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** What databind's JsonNodeDeserializer builds from the value at {@code t}, under default features. */
    private static JsonNode treeNode(JsonParser p, JsonToken t) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (t == JsonToken.START_OBJECT) {
            ObjectNode o = f.objectNode();
            for (t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String key = p.currentName();
                JsonNode value = treeNode(p, p.nextToken());
                if (value == null || o.has(key)) {
                    return null;
                }
                o.set(key, value);
            }
            return t == JsonToken.END_OBJECT ? o : null;
        }
        if (t == JsonToken.START_ARRAY) {
            ArrayNode a = f.arrayNode();
            for (t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                JsonNode value = t == null ? null : treeNode(p, t);
                if (value == null) {
                    return null;
                }
                a.add(value);
            }
            return a;
        }
        if (t == JsonToken.VALUE_STRING) {
            return f.textNode(p.getText());
        }
        if (t == JsonToken.VALUE_NUMBER_INT) {
            JsonParser.NumberType type = p.getNumberType();
            return type == JsonParser.NumberType.INT ? f.numberNode(p.getIntValue())
                    : type == JsonParser.NumberType.LONG ? f.numberNode(p.getLongValue()) : null;
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            JsonParser.NumberTypeFP type = p.getNumberTypeFP();
            boolean plain = type != JsonParser.NumberTypeFP.BIG_DECIMAL && type != JsonParser.NumberTypeFP.FLOAT32;
            return plain ? f.numberNode(p.getDoubleValue()) : null;
        }
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return f.booleanNode(t == JsonToken.VALUE_TRUE);
        }
        return t == JsonToken.VALUE_NULL ? f.nullNode() : null;
    }
}
