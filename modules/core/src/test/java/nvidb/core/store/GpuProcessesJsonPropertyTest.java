package nvidb.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import nvidb.core.api.GpuState.GpuProcessView;
import nvidb.core.api.RandomJson;
import org.junit.jupiter.api.Test;

/**
 * {@code processes_json}: what {@link GpuRepository#processesJson} writes is what the mapper writes
 * of the records, and what {@link GpuRepository#processes} reads (streamed, for the text the store
 * writes) is what the mapper reads into the records, on random process lists and on random
 * documents near that shape (keys missing, repeated or unknown, values of other types, nulls,
 * numbers beyond an int or a long, broken text).
 */
class GpuProcessesJsonPropertyTest {
    /** The reference: a mapper of its own, default features. */
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> KEYS = List.of("pid", "memMb", "name", "user", "jobId", "jobName", "managed");

    @Test
    void writesWhatTheMapperWritesAndReadsItBack() throws JsonProcessingException {
        Random random = new Random(20_261_203L);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < 3_000; i++) {
            List<GpuProcessView> processes = new ArrayList<>();
            for (int n = random.nextInt(4); n > 0; n--) {
                processes.add(new GpuProcessView(random.nextInt(), random.nextBoolean() ? null : random.nextInt(),
                        nullOr(random, () -> text(json)), nullOr(random, () -> text(json)),
                        random.nextBoolean() ? null : random.nextLong() >> random.nextInt(64),
                        nullOr(random, () -> text(json)), random.nextBoolean()));
            }
            String written = GpuRepository.processesJson(processes);
            assertEquals(MAPPER.writeValueAsString(processes), written);
            assertNotNull(GpuRepository.streamedProcesses(written), written);
            assertEquals(processes, GpuRepository.processes(written));
        }
    }

    @Test
    void readsWhatTheMapperReads() {
        Random random = new Random(20_261_204L);
        RandomJson json = new RandomJson(random);
        int streamed = 0;
        for (int i = 0; i < 8_000; i++) {
            String text = json.damage(json.array(random.nextInt(3), () -> process(json)));
            assertEquals(mapper(text), GpuRepository.processes(text), text);
            streamed += GpuRepository.streamedProcesses(text) != null ? 1 : 0;
        }
        assertTrue(streamed > 500, "the streamed shape came up " + streamed + " times");
        assertNull(GpuRepository.streamedProcesses("[{\"pid\":1,\"memMb\":null,\"name\":null,\"user\":null,"
                + "\"jobId\":null,\"jobName\":null,\"managed\":false,\"pid\":2}]"), "a repeated key is the mapper's");
    }

    /** A process object: mostly of the written shape, with now and then a slip the mapper must judge. */
    private static String process(RandomJson json) {
        Random random = json.random();
        List<String> keys = new ArrayList<>(KEYS);
        if (random.nextInt(8) == 0) {
            keys.remove(random.nextInt(keys.size()));
        }
        if (random.nextInt(8) == 0) {
            keys.add(random.nextBoolean() ? KEYS.get(random.nextInt(KEYS.size())) : "other");
        }
        if (random.nextInt(4) == 0) {
            java.util.Collections.shuffle(keys, random);
        }
        int[] next = {0};
        return json.object(keys.size(), () -> "\"" + keys.get(next[0]) + "\"", () -> value(json, keys.get(next[0]++)));
    }

    private static String value(RandomJson json, String key) {
        Random random = json.random();
        if (random.nextInt(10) == 0) {
            return json.value(1);
        }
        return switch (key) {
            case "pid" -> Integer.toString(random.nextInt());
            case "memMb" -> random.nextInt(4) == 0 ? "null" : random.nextInt(6) == 0 ? json.integer() : Integer.toString(random.nextInt(90_000));
            case "jobId" -> random.nextInt(4) == 0 ? "null" : json.integer();
            case "managed" -> random.nextBoolean() ? "true" : "false";
            default -> random.nextInt(4) == 0 ? "null" : json.string();
        };
    }

    /** The mapper's reading, as the store had it before any streaming; unreadable text is no processes. */
    private static List<GpuProcessView> mapper(String text) {
        try {
            return MAPPER.readValue(text, new TypeReference<List<GpuProcessView>>() { });
        } catch (JsonProcessingException e) {
            return new ArrayList<>();
        }
    }

    private static String text(RandomJson json) {
        try {
            return MAPPER.readValue(json.string(), String.class);
        } catch (JsonProcessingException e) {
            return "?";
        }
    }

    private static <T> T nullOr(Random random, Supplier<T> value) {
        return random.nextInt(4) == 0 ? null : value.get();
    }
}
