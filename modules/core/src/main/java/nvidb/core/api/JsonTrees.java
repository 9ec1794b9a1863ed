package nvidb.core.api;

import com.fasterxml.jackson.core.JsonFactory;
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
import java.io.IOException;
import java.util.Map;

/**
 * JSON trees read with jackson-core's streaming parser, without building an ObjectMapper (whose
 * start-up cost dominated short commands). Shared by the store and the CLI's output.
 */
public final class JsonTrees {
    private JsonTrees() {
    }

    /** The tree of {@code text} when it is one JSON value of the usual kinds; null otherwise. */
    public static JsonNode parse(JsonFactory factory, String text) {
        try (JsonParser p = factory.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return null;
            }
            JsonNode node = treeNode(p, t);
            return node != null && p.nextToken() == null ? node : null;
        } catch (IOException e) {
            return null;
        }
    }


    // What databind's JsonNodeDeserializer builds for each token under default features.
    private static JsonNode treeNode(JsonParser p, JsonToken t) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (t) {
            case START_OBJECT -> {
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
            case START_ARRAY -> {
                ArrayNode a = f.arrayNode();
                for (t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    if (t == null) {
                        return null;
                    }
                    JsonNode value = treeNode(p, t);
                    if (value == null) {
                        return null;
                    }
                    a.add(value);
                }
                return a;
            }
            case VALUE_STRING -> {
                return f.textNode(p.getText());
            }
            case VALUE_NUMBER_INT -> {
                return switch (p.getNumberType()) {
                    case INT -> f.numberNode(p.getIntValue());
                    case LONG -> f.numberNode(p.getLongValue());
                    default -> null;
                };
            }
            case VALUE_NUMBER_FLOAT -> {
                JsonParser.NumberTypeFP type = p.getNumberTypeFP();
                if (type == JsonParser.NumberTypeFP.BIG_DECIMAL || type == JsonParser.NumberTypeFP.FLOAT32) {
                    return null;
                }
                return f.numberNode(p.getDoubleValue());
            }
            case VALUE_TRUE -> {
                return f.booleanNode(true);
            }
            case VALUE_FALSE -> {
                return f.booleanNode(false);
            }
            case VALUE_NULL -> {
                return f.nullNode();
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Writes a tree of the standard node types exactly as their own {@code serialize} methods do
     * under a default mapper (an if chain, not a pattern switch: each pattern
     * switch spins a class at run time that the AOT cache does not keep); false for any other node (POJO, binary, raw, missing).
     */
    public static boolean write(JsonGenerator g, JsonNode node) throws IOException {
        if (node instanceof ObjectNode o) {
            g.writeStartObject(o, o.size());
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                g.writeFieldName(e.getKey());
                if (!write(g, e.getValue())) {
                    return false;
                }
            }
            g.writeEndObject();
        } else if (node instanceof ArrayNode a) {
            g.writeStartArray(a, a.size());
            for (JsonNode child : a) {
                if (!write(g, child)) {
                    return false;
                }
            }
            g.writeEndArray();
        } else if (node instanceof TextNode || node instanceof NumericNode || node instanceof BooleanNode) {
            // These write their value alone; none of them consults the provider.
            ((com.fasterxml.jackson.databind.node.ValueNode) node).serialize(g, null);
        } else if (node instanceof NullNode) {
            g.writeNull();
        } else {
            return false;
        }
        return true;
    }
}
