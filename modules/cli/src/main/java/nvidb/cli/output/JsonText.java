package nvidb.cli.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.NumericNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.Writer;
import java.util.Map;

/**
 * JSON text of the output, without a databind {@code ObjectMapper}: creating one (and its
 * serialisers) costs more start-up time than a whole {@code job submit} does otherwise. Trees of
 * the standard node types are written with jackson-core's generator and the same pretty printer,
 * and stored JSON of the usual kinds is parsed with its streaming parser, into the very nodes the
 * mapper would build; anything else goes to a mapper made on first use ({@link Mapper}), so the
 * text is always exactly the mapper's.
 */
final class JsonText {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** Two-space indent, {@code "key": value}, {@code []} and {@code {}} when empty. */
    static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""));

    private JsonText() {
    }

    /** The mapper, for what the streaming code leaves to it; built when first needed. */
    static final class Mapper {
        static final ObjectMapper MAPPER = new ObjectMapper();
        static final ObjectWriter PRETTY_WRITER = MAPPER.writer(PRETTY);

        private Mapper() {
        }
    }

    /** {@code node} as the mapper's writer with {@link #PRETTY} writes it (no trailing newline). */
    static String pretty(JsonNode node) {
        try {
            StringWriter out = new StringWriter(256);
            boolean done;
            try (JsonGenerator g = FACTORY.createGenerator(out)) {
                // A pretty printer keeps the nesting of one document: a fresh one each time, as ObjectWriter does.
                g.setPrettyPrinter(PRETTY.createInstance());
                done = writeTree(g, node);
            }
            if (done) {
                return out.toString();
            }
        } catch (IOException e) {
            // the mapper below reports it
        }
        try {
            return Mapper.PRETTY_WRITER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Prints {@code node} exactly as {@code out.print(pretty(node))} does, but straight into
     * {@code out}, encoded with its charset as {@code print} would: a listing of every job is
     * megabytes of text, and building it as one string first costs time and memory. A tree the
     * streaming code cannot write whole (a node of another type, or nesting deep enough to meet
     * the generator's limits) is printed through {@link #pretty} instead, so that a failure never
     * leaves half a document.
     */
    static void prettyTo(JsonNode node, PrintStream out) {
        if (!streamable(node, 0)) {
            out.print(pretty(node));
            return;
        }
        Writer text = new OutputStreamWriter(out, out.charset());
        try {
            try (JsonGenerator g = FACTORY.createGenerator(text)) {
                g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
                g.setPrettyPrinter(PRETTY.createInstance());
                writeTree(g, node);
            }
            text.flush();
        } catch (IOException e) {
            // A PrintStream never throws (it records the error); this cannot happen.
            throw new IllegalStateException(e);
        }
    }

    /** Only the node types {@link #writeTree} writes, and no deeper than {@code 200} levels. */
    private static boolean streamable(JsonNode node, int depth) {
        if (depth > 200) {
            return false;
        }
        if (node instanceof ObjectNode || node instanceof ArrayNode) {
            for (JsonNode child : node) {
                if (!streamable(child, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return node instanceof TextNode || node instanceof NumericNode || node instanceof BooleanNode
                || node instanceof NullNode;
    }

    /** A map of strings as {@code valueToTree(map).toString()} writes it: compact. */
    static String compact(Map<String, String> values) {
        try {
            StringWriter out = new StringWriter(64);
            try (JsonGenerator g = FACTORY.createGenerator(out)) {
                g.writeStartObject();
                for (Map.Entry<String, String> e : values.entrySet()) {
                    g.writeFieldName(e.getKey());
                    if (e.getValue() == null) {
                        g.writeNull();
                    } else {
                        g.writeString(e.getValue());
                    }
                }
                g.writeEndObject();
            }
            return out.toString();
        } catch (IOException | RuntimeException e) {
            return Mapper.MAPPER.valueToTree(values).toString();
        }
    }

    /** See {@link nvidb.core.api.JsonTrees#write}. */
    private static boolean writeTree(JsonGenerator g, JsonNode node) throws IOException {
        return nvidb.core.api.JsonTrees.write(g, node);
    }

    /** {@code ObjectMapper.readTree(text)}: the same nodes, or the same exception. */
    static JsonNode readTree(String text) throws JsonProcessingException {
        JsonNode fast = parse(text);
        return fast != null ? fast : Mapper.MAPPER.readTree(text);
    }

    /**
     * The tree of {@code text} when it is one well-formed JSON value of the usual kinds; null for
     * anything else (duplicate keys, big or single-precision numbers, trailing text, errors).
     */
    private static JsonNode parse(String text) {
        return nvidb.core.api.JsonTrees.parse(FACTORY, text);
    }

}
