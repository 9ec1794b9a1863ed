package nvidb.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import nvidb.core.view.JobDocuments;
import org.junit.jupiter.api.Test;

/**
 * A tool's output schema says what each key holds: a JSON value of any shape (a job's result, its
 * vram_source) is left unconstrained. A JsonNode is Iterable, and was once described as an array:
 * the SDK then refused every submit whose job carried a vram_source object.
 */
class OutputSchemasTest {
    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(Map<String, Object> schema) {
        return (Map<String, Object>) schema.get("properties");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anyJsonValueIsUnconstrainedAndListsAreArrays() {
        Map<String, Object> job = (Map<String, Object>) properties(OutputSchemas.of(JobDocuments.Submitted.class)).get("job");
        assertEquals(List.of("object", "null"), job.get("type"));
        Map<String, Object> keys = properties(job);
        assertEquals(Map.of(), keys.get("result"));
        assertEquals(Map.of(), keys.get("vram_source"));
        assertEquals(List.of("array", "null"), ((Map<String, Object>) keys.get("gpu_ids")).get("type"));
        assertEquals(List.of("integer", "null"), ((Map<String, Object>) keys.get("peak_vram_mb")).get("type"));
    }
}
