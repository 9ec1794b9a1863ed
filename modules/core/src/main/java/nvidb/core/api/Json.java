package nvidb.core.api;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;

/**
 * The one JSON codec, Jackson's mapper: every {@code --json} document (typed view records, whose
 * components are written as {@code snake_case} keys in their declared order), and the JSON the
 * store keeps as text (results, event data, runner state). The store's lists and maps are rows of
 * their own (schema 4), so nothing here parses a column by hand.
 */
public final class Json {
    /**
     * Records' camelCase components as snake_case keys ({@code vramMb} is {@code vram_mb}); map
     * keys and trees are written as they are.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET) // the document's newline follows on the same stream
            .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE) // a listing's jobs go out in buffers, not one by one
            .build();

    /**
     * Two-space indent, {@code "key": value}, {@code []} and {@code {}} when empty: the layout of
     * every {@code --json} document.
     */
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""));

    private Json() {
    }


    /** Compact JSON of {@code value}. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /** {@code value} in the layout of a {@code --json} document (no trailing newline). */
    public static String pretty(Object value) {
        try {
            return MAPPER.writer(PRETTY).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * A generator for one document written piece by piece into {@code out} (left open), in the
     * layout of {@link #pretty} or compact; {@link #write(JsonGenerator, Object)} puts a value where it stands.
     */
    public static JsonGenerator generator(Writer out, boolean pretty) throws IOException {
        return laidOut(MAPPER.createGenerator(out), pretty);
    }

    /**
     * The same, writing UTF-8 bytes into {@code out} (left open) with no character stage between:
     * a listing of 10,000 jobs is ~10 MB, which a {@link Writer} would encode a second time.
     */
    public static JsonGenerator generator(OutputStream out, boolean pretty) throws IOException {
        return laidOut(MAPPER.createGenerator(out, JsonEncoding.UTF8), pretty);
    }

    private static JsonGenerator laidOut(JsonGenerator g, boolean pretty) {
        if (pretty) {
            // A pretty printer keeps the nesting of one document: a fresh one each time.
            g.setPrettyPrinter(PRETTY.createInstance());
        }
        return g;
    }

    /**
     * Writes {@code value} where {@code g} stands, as the whole document's printing would write it
     * there. A part read while it is written (a job listing) that is refused throws its own
     * exception, not Jackson's wrapping of it.
     */
    public static void write(JsonGenerator g, Object value) throws IOException {
        try {
            MAPPER.writeValue(g, value);
        } catch (com.fasterxml.jackson.databind.JsonMappingException e) {
            if (e.getCause() instanceof RuntimeException refused) {
                throw refused;
            }
            throw e;
        }
    }

    /**
     * Builds the serialiser of {@code type} (and those of the records it holds) into the mapper's
     * cache ahead of the first value, where writing the first value would build it: Jackson's
     * introspection of a record, its annotations and their proxies, ~20 ms of a command's start.
     */
    public static void prepareWriting(Class<?> type) {
        MAPPER.writerFor(type);
    }

    /** The tree of {@code text}. */
    public static JsonNode readTree(String text) throws JsonProcessingException {
        return MAPPER.readTree(text);
    }

    /** {@code text} as a value of {@code type}: a stored list or map read back. */
    public static <T> T read(String text, TypeReference<? extends T> type) throws JsonProcessingException {
        return MAPPER.readValue(text, type);
    }

    /** A parser over {@code text}, token by token (to find text that goes on after a first value). */
    public static JsonParser parser(String text) throws IOException {
        return MAPPER.createParser(text);
    }
}
