package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Json;
import nvidb.core.view.ErrorView;

/**
 * A read route's body, taken from the document while it is written: kept here up to {@link #LIMIT}
 * bytes, so that a refusal found early (an unknown node) is answered with its own status; past
 * that the answer is a 200 whose body streams out as it is written, so a listing of 10,000 jobs
 * (10 MB) is never held whole, in bytes or as text. An operation that fails after it started
 * streaming leaves its document unfinished, then its error document, as on the command line: no
 * reader takes the cut listing for a whole one.
 */
final class SpillingBody extends OutputStream {
    /** What is answered whole, with its own status. */
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

    /** Ends the answer: the held document with 200, or the end of the stream. */
    void finish() throws IOException {
        if (streaming == null) {
            Http.json(ex, 200, held.toString(StandardCharsets.UTF_8));
            return;
        }
        end();
    }

    /**
     * Ends the answer with an error: before the body spilled, the error document alone with its
     * status (what was held is dropped); after, the cut document's stream gets the error document
     * and ends, as the command line prints it.
     */
    void fail(ErrorCode code, String message) throws IOException {
        if (streaming == null) {
            Http.error(ex, Http.status(code.label()), code, message);
            return;
        }
        write(("\n" + Json.pretty(ErrorView.of(code, message)) + "\n").getBytes(StandardCharsets.UTF_8));
        end();
    }

    private void end() throws IOException {
        try {
            if (!broken) {
                streaming.close();
            }
        } finally {
            ex.close();
        }
    }
}
