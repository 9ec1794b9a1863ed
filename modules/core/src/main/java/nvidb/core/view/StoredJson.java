package nvidb.core.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import nvidb.core.api.Json;

/** JSON the store keeps as text (a result, event data, a runner's state), as a document shows it. */
public final class StoredJson {
    private StoredJson() {
    }

    /** The stored text as a tree; text that is somehow not JSON comes back as a string, never lost. */
    public static JsonNode parsed(String json) {
        if (json == null) {
            return NullNode.getInstance();
        }
        try {
            return Json.readTree(json);
        } catch (Exception e) {
            return TextNode.valueOf(json);
        }
    }
}
