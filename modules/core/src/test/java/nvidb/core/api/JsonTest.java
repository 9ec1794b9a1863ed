package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
    void prettyToPrintsThePrettyTextInTheStreamsCharset() throws Exception {
        JsonNode node = Json.readTree("[{\"a\":\"\u00e9\u2713\ud83d\ude00\"},1.5E300,true,null]");
        for (Charset charset : List.of(StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1)) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (PrintStream out = new PrintStream(printed, true, charset);
                    PrintStream reference = new PrintStream(expected, true, charset)) {
                Json.prettyTo(node, out);
                out.print('\n');
                reference.print(Json.pretty(node));
                reference.print('\n');
            }
            assertEquals(Arrays.toString(expected.toByteArray()), Arrays.toString(printed.toByteArray()), charset.name());
        }
    }

    @Test
    void aTreeTooDeepToWriteFailsBeforePrintingAnything() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode level = root.putArray("deep");
        for (int i = 0; i < 1_500; i++) {
            level = level.addArray();
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertThrows(IllegalStateException.class, () -> Json.prettyTo(root, out));
        assertEquals(0, printed.size());
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
