package nvidb.core.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one JSON codec, on Jackson: the store's JSON columns (ids, tags, env, results, event data,
 * runner state, the GPUs' processes) and the CLI's {@code --json} documents, written and read as
 * databind's mapper does under its default features, as the columns have always been.
 *
 * <p>An ordinary command never builds the mapper: values and trees of the usual kinds go through
 * jackson-core's streaming generator and parser ({@link JsonStreams}, and here the list and map
 * columns of every job row), and only what those leave aside goes to the mapper, built on first
 * use. Both were measured whole-command with bench/json-codec.sh (3,000 jobs; figures in the
 * commit that made this class): building the mapper and its first serialisers cost 13-41 ms of
 * each command timed, a mapper call per column another 21-28 ms of {@code nvidb job ls -n 0}.
 * Paths that saved less than 10 ms were dropped. JsonCodecPropertyTest holds the streamed paths
 * to the mapper on random documents.
 */
public final class Json {
    /** The streaming factory: the same parser and generator features as the mapper's. */
    private static final JsonFactory FACTORY = new JsonFactory();

    /**
     * Two-space indent, {@code "key": value}, {@code []} and {@code {}} when empty: the layout of
     * every {@code --json} document.
     */
    static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""));

    private Json() {
    }

    /** Databind's mapper, default features, built when first asked for (not when Json is first used). */
    private static final class Mapper {
        static final ObjectMapper MAPPER = new ObjectMapper();
        /** Leaves the stream it writes to open: the document's newline follows on the same stream. */
        static final ObjectWriter PRETTY_WRITER = MAPPER.writer(PRETTY).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

        private Mapper() {
        }
    }

    /** Compact JSON of {@code value}. */
    public static String write(Object value) {
        try {
            StringWriter out = new StringWriter(64);
            boolean done;
            try (JsonGenerator g = FACTORY.createGenerator(out)) {
                done = JsonStreams.writeValue(g, value);
            }
            if (done) {
                return out.toString();
            }
        } catch (IOException e) {
            // the mapper below says what is wrong with it
        }
        try {
            return Mapper.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /** {@code node} in the layout of a {@code --json} document (no trailing newline). */
    public static String pretty(JsonNode node) {
        try {
            StringWriter out = new StringWriter(256);
            if (prettyTo(node, out)) {
                return out.toString();
            }
        } catch (IOException e) {
            // the mapper below says what is wrong with it
        }
        try {
            return Mapper.PRETTY_WRITER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Prints {@code node} as {@code out.print(pretty(node))} does, but straight into {@code out}
     * in its charset: a listing of every job is megabytes of text, not worth building as one
     * string first. A tree the generator cannot write whole (a node of another type, nesting
     * deeper than it allows) goes through {@link #pretty}, so that a failure never leaves half a
     * document.
     */
    public static void prettyTo(JsonNode node, PrintStream out) {
        if (!streamable(node, 0)) {
            out.print(pretty(node));
            return;
        }
        Writer text = new OutputStreamWriter(out, out.charset());
        try {
            prettyTo(node, text);
            text.flush();
        } catch (IOException e) {
            // A PrintStream never throws (it records the error); this cannot happen.
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code node} pretty into {@code out}; false when it holds a node the generator alone cannot write. */
    private static boolean prettyTo(JsonNode node, Writer out) throws IOException {
        try (JsonGenerator g = generator(out, true)) {
            return JsonStreams.writeTree(g, node);
        }
    }

    /**
     * A generator for one document written piece by piece into {@code out} (left open): in the
     * layout of {@link #prettyTo}, or compact as {@link #write} writes. Together with
     * {@link #writeTree} it prints the same bytes as building the whole tree first and printing
     * it, without holding the tree: a listing of every job streams.
     */
    public static JsonGenerator generator(Writer out, boolean pretty) throws IOException {
        JsonGenerator g = FACTORY.createGenerator(out);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        if (pretty) {
            // A pretty printer keeps the nesting of one document: a fresh one each time, as ObjectWriter does.
            g.setPrettyPrinter(PRETTY.createInstance());
        }
        return g;
    }

    /** Writes {@code node} where {@code g} stands, as the tree's printing would write it there. */
    public static void writeTree(JsonGenerator g, JsonNode node) throws IOException {
        // Checked first: the streamed path gives up part-way through a node it cannot write.
        if (streamable(node, g.getOutputContext().getNestingDepth())) {
            JsonStreams.writeTree(g, node);
        } else {
            Mapper.MAPPER.writeTree(g, node);
        }
    }

    /** Only standard node types, nested no deeper than the generator allows. */
    private static boolean streamable(JsonNode node, int depth) {
        if (node.isContainerNode()) {
            if (depth >= FACTORY.streamWriteConstraints().getMaxNestingDepth()) {
                return false;
            }
            for (JsonNode child : node) {
                if (!streamable(child, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return node.isTextual() || node.isNumber() || node.isBoolean() || node.isNull();
    }

    /** {@code ObjectMapper.readTree} of {@code text}: the same nodes, or the same exception. */
    public static JsonNode readTree(String text) throws JsonProcessingException {
        JsonNode streamed = JsonStreams.parseTree(text);
        return streamed != null ? streamed : Mapper.MAPPER.readTree(text);
    }

    /** {@code text} read by the mapper as {@code type}. */
    public static <T> T read(String text, TypeReference<T> type) throws JsonProcessingException {
        return Mapper.MAPPER.readValue(text, type);
    }

    /** A streaming parser over {@code text}, with the mapper's own parser features. */
    public static JsonParser parser(String text) throws IOException {
        return FACTORY.createParser(text);
    }

    /** A stored list of numbers (ids): non-numbers are skipped, unreadable text reads as empty. */
    public static List<Long> longs(String text) {
        // "[]" is what most rows hold (no dependencies, no GPUs): no parser for it.
        if (text == null || text.isBlank() || text.equals("[]")) {
            return new ArrayList<>();
        }
        List<Long> flat = FlatJson.longs(text);
        if (flat != null) {
            return flat;
        }
        List<Long> streamed = streamedArray(text, JsonToken.VALUE_NUMBER_INT,
                p -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? null : p.getLongValue());
        if (streamed != null) {
            return streamed;
        }
        List<Long> out = new ArrayList<>();
        for (Object o : mapperList(text)) {
            if (o instanceof Number n) {
                out.add(n.longValue());
            }
        }
        return out;
    }

    /** {@link #longs}, as ints (GPU indices). */
    public static List<Integer> ints(String text) {
        List<Integer> out = new ArrayList<>();
        for (Long l : longs(text)) {
            out.add(l.intValue());
        }
        return out;
    }

    /** A stored list of strings (tags): other values as their text, unreadable text reads as empty. */
    public static List<String> strings(String text) {
        if (text == null || text.isBlank() || text.equals("[]")) {
            return new ArrayList<>();
        }
        List<String> flat = FlatJson.strings(text);
        if (flat != null) {
            return flat;
        }
        List<String> streamed = streamedArray(text, JsonToken.VALUE_STRING, JsonParser::getText);
        if (streamed != null) {
            return streamed;
        }
        List<String> out = new ArrayList<>();
        for (Object o : mapperList(text)) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    /** A stored map of strings (env), in its stored order; unreadable text reads as empty. */
    public static Map<String, String> stringMap(String text) {
        if (text == null || text.isBlank() || text.equals("{}")) {
            return new LinkedHashMap<>();
        }
        Map<String, String> flat = FlatJson.stringMap(text); // the usual form, without a parser
        if (flat != null) {
            return flat;
        }
        try (JsonParser p = parser(text)) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                Map<String, String> out = new LinkedHashMap<>();
                JsonToken t = p.nextToken();
                for (; t == JsonToken.FIELD_NAME && p.nextToken() == JsonToken.VALUE_STRING; t = p.nextToken()) {
                    // A repeated key: the last value in the first one's place, as the mapper reads it.
                    out.put(p.currentName(), p.getText());
                }
                if (t == JsonToken.END_OBJECT && p.nextToken() == null) {
                    return out;
                }
            }
        } catch (IOException e) {
            // the mapper decides below
        }
        try {
            return Mapper.MAPPER.readValue(text, new TypeReference<LinkedHashMap<String, String>>() { });
        } catch (JsonProcessingException e) {
            return new LinkedHashMap<>();
        }
    }

    /** Reads one array element with the streaming parser; null to leave the whole text to the mapper. */
    @FunctionalInterface
    private interface Element<T> {
        T read(JsonParser p) throws IOException;
    }

    /**
     * The array that {@code text} is, when it is one array, alone, of {@code kind} tokens that
     * {@code element} reads; null for any other text.
     */
    private static <T> List<T> streamedArray(String text, JsonToken kind, Element<T> element) {
        try (JsonParser p = parser(text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<T> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                T value = t == kind ? element.read(p) : null;
                if (value == null) {
                    return null;
                }
                out.add(value);
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The mapper's list of {@code text}; empty when it is unreadable or not a list. */
    private static List<?> mapperList(String text) {
        try {
            return Mapper.MAPPER.readValue(text, List.class);
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }
}
