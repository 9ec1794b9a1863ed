package nvidb.core.util;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

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
}
