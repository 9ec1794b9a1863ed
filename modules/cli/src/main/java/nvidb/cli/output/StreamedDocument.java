package nvidb.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import nvidb.core.api.Json;

/**
 * One {@code --json} document (an object) printed while it is produced, so that a listing of a
 * big queue is never held whole: the bytes are those {@link Output#document} prints for a record
 * with the same keys and values, each value written through the one writer ({@link Json}). Nothing is printed until the first key is written, so a command
 * refused before it (an unknown node) still prints only its error document. A failure part-way
 * leaves the document unfinished ({@link #end} never runs), and the error document follows it:
 * no reader takes a cut listing for a whole one.
 */
public final class StreamedDocument {
    private final PrintStream out;
    private final boolean pretty;
    private Writer text;
    private JsonGenerator g;

    StreamedDocument(PrintStream out, boolean pretty) {
        this.out = out;
        this.pretty = pretty;
    }

    /** What fills an {@link #array}: it hands each element to the consumer it is given, in order. */
    @FunctionalInterface
    public interface Producer {
        void produce(Consumer<Object> element);
    }

    /** A field holding {@code value}, a view record (or a string, number, list…); null prints as JSON null. */
    public StreamedDocument field(String name, Object value) {
        return write(() -> {
            started().writeFieldName(name);
            Json.write(g, value);
        });
    }

    /**
     * An array whose elements {@code producer} hands over one at a time, each written through the
     * generator at once. Returns how many there were.
     */
    public int array(String name, Producer producer) {
        int[] count = {0};
        producer.produce(element -> write(() -> {
            if (count[0]++ == 0) {
                openArray(name);
            }
            Json.write(g, element);
        }));
        write(() -> {
            if (count[0] == 0) {
                openArray(name);
            }
            g.writeEndArray();
        });
        return count[0];
    }

    /** Closes the object and prints the newline that ends every document. */
    public void end() {
        write(() -> {
            started().writeEndObject();
            g.close();
            if (text != null) {
                text.flush();
            }
        });
        out.print('\n');
        out.flush();
    }

    private void openArray(String name) throws IOException {
        started().writeFieldName(name);
        g.writeStartArray();
    }

    private JsonGenerator started() throws IOException {
        if (g == null) {
            if (StandardCharsets.UTF_8.equals(out.charset())) {
                // The process's own stdout is UTF-8 (Output.system): bytes straight from the generator.
                g = Json.generator(out, pretty);
            } else {
                text = new OutputStreamWriter(out, out.charset());
                g = Json.generator(text, pretty);
            }
            g.writeStartObject();
        }
        return g;
    }

    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    private StreamedDocument write(Step step) {
        try {
            step.run();
        } catch (IOException e) {
            // Only the generator's own checks can throw here: a PrintStream records its errors.
            throw new UncheckedIOException(e);
        }
        return this;
    }
}
