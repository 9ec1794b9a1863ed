package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A read route's body, taken from the command while it prints: kept here up to {@link #LIMIT}
 * bytes, so that a short document (an error above all) is answered with the status its command
 * ended with; past that the answer is a 200 whose body streams out as the command writes it, so
 * a listing of 10,000 jobs (10 MB) is never held whole, in bytes or as text. A command that
 * fails after it started printing leaves its document unfinished, then its error document, as on
 * the command line: no reader takes the cut listing for a whole one.
 */
final class SpillingBody extends OutputStream {
    /** What is answered whole, with the command's own status. */
    static final int LIMIT = 256 * 1024;

    private final HttpExchange ex;
    private final int limit;
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private OutputStream streaming;
    private boolean broken;

    SpillingBody(HttpExchange ex) {
        this.ex = ex;
        // HEAD gets the headers a GET would; a length is only known from the whole body.
        this.limit = "HEAD".equals(ex.getRequestMethod()) ? Integer.MAX_VALUE : LIMIT;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (broken) {
            return; // the client went away: the rest of the document goes nowhere
        }
        if (streaming == null && held.size() + len <= limit) {
            held.write(b, off, len);
            return;
        }
        try {
            if (streaming == null) {
                Http.common(ex, Http.JSON);
                ex.sendResponseHeaders(200, 0); // chunked: the length is not known yet
                streaming = new BufferedOutputStream(ex.getResponseBody(), 64 * 1024);
                held.writeTo(streaming);
                held.reset();
            }
            streaming.write(b, off, len);
        } catch (IOException e) {
            broken = true;
        }
    }

    /** Ends the answer: the held document with its command's status, or the end of the stream. */
    void finish(int exit) throws IOException {
        if (streaming == null) {
            String json = held.toString(StandardCharsets.UTF_8);
            // Only a failed command printed an error document: a listing is not parsed to find out.
            Http.json(ex, exit == 0 ? 200 : Http.status(Api.errorCode(json)), json);
            return;
        }
        try {
            if (!broken) {
                streaming.close();
            }
        } finally {
            ex.close();
        }
    }
}
