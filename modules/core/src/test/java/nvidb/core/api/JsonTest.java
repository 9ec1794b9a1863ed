package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The layout of the {@code --json} documents and the compact text of the columns: the contract. */
class JsonTest {
    @Test
    void prettyDocumentsHaveTheContractLayout() throws Exception {
        JsonNode node = Json.readTree("{\"id\":1,\"empty\":[],\"none\":{},\"env\":{\"LR\":\"1e-4\"},"
                + "\"result\":{\"lr\":1e-4,\"big\":9223372036854775807,\"neg\":-0.0,\"x\":0.1},"
                + "\"tags\":[\"a\",\"\u00e9 \u2713 \\u0001\\t\\\"q\\\"\"],\"nested\":[[],{}],\"n\":null}");
        assertEquals("""
                {
                  "id": 1,
                  "empty": [],
                  "none": {},
                  "env": {
                    "LR": "1e-4"
                  },
                  "result": {
                    "lr": 1.0E-4,
                    "big": 9223372036854775807,
                    "neg": -0.0,
                    "x": 0.1
                  },
                  "tags": [
                    "a",
                    "\u00e9 \u2713 \\u0001\\t\\"q\\""
                  ],
                  "nested": [
                    [],
                    {}
                  ],
                  "n": null
                }""", Json.pretty(node));
    }

    @Test
    void aTreeTooDeepToWriteFailsBeforePrintingAnything() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode level = root.putArray("deep");
        for (int i = 0; i < 1_500; i++) {
            level = level.addArray();
        }
        assertThrows(IllegalStateException.class, () -> Json.pretty(root));
    }

    /** A view record: its components in declared order, as snake_case keys; nulls written. */
    record View(long id, String vramMb, List<Long> dependsOn, JsonNode result, Map<String, String> env) {
    }

    @Test
    void recordsAreWrittenWithSnakeCaseKeysInTheirOrder() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("camelCase", "kept");
        assertEquals("{\"id\":3,\"vram_mb\":null,\"depends_on\":[1,2],\"result\":{\"aB\":1},\"env\":{\"camelCase\":\"kept\"}}",
                Json.write(new View(3, null, List.of(1L, 2L), Json.readTree("{\"aB\":1}"), env)));
    }

    @Test
    void columnsAreCompact() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("B", "tab\t\"quoted\" \u00fc");
        env.put("A", null);
        assertEquals("{\"B\":\"tab\\t\\\"quoted\\\" \u00fc\",\"A\":null}", Json.write(env));
        assertEquals("[3,-1,9223372036854775807]", Json.write(List.of(3L, -1L, Long.MAX_VALUE)));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("v", 1e-4);
        data.put("n", List.of());
        data.put("i", 7);
        assertEquals("{\"v\":1.0E-4,\"n\":[],\"i\":7}", Json.write(data));
    }
}
