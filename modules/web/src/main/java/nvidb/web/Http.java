package nvidb.web;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Json;

/** Writing responses, and reading what a request carries, the same way for every route. */
final class Http {
    /** The largest request body read; a bigger one is refused unread. */
    static final int MAX_BODY = 64 * 1024;
    /**
     * Scripts, styles and fetches from this server only, and no inline script at all: even a
     * value that slipped into the page as markup could not run.
     */
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private Http() {
    }

    /** The headers every answer carries: nothing cached, nothing sniffed, never framed, no referrer. */
    static void common(HttpExchange ex, String contentType) {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", contentType);
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", CSP);
    }

    static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        common(ex, contentType);
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
        ex.close();
    }

    static final String JSON = "application/json; charset=utf-8";

    static void json(HttpExchange ex, int status, String json) throws IOException {
        send(ex, status, JSON, (json.endsWith("\n") ? json : json + "\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    /** An error in the shape of the CLI's {@code --json} errors: {@code {ok: false, error, code}}. */
    static void error(HttpExchange ex, int status, ErrorCode code, String message) throws IOException {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("ok", false);
        o.put("error", message);
        o.put("code", code.label());
        json(ex, status, Json.pretty(o));
    }

    /** The HTTP status of a CLI error code: the caller's mistake 400, not theirs to change 403, unknown 404, refused 409, over a quota 429. */
    static int status(String code) {
        if (code == null) {
            return 200;
        }
        return switch (code) {
            case "usage" -> 400;
            case "forbidden" -> 403;
            case "quota" -> 429;
            case "not_found" -> 404;
            case "conflict" -> 409;
            case "unavailable", "interrupted" -> 503;
            default -> 500;
        };
    }

    /** The query string's parameters, decoded; a repeated one keeps its values joined by commas. */
    static Map<String, String> query(HttpExchange ex) {
        Map<String, String> out = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.merge(key, value, (a, b) -> a + "," + b);
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("the query string is not valid URL encoding");
        }
    }

    /** The request body, at most {@link #MAX_BODY} bytes; a bigger one is refused before it is read whole. */
    static String body(HttpExchange ex) throws IOException {
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.strip()) > MAX_BODY) {
                    throw new TooLarge();
                }
            } catch (NumberFormatException e) {
                throw new BadRequest("Content-Length is not a number");
            }
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (InputStream in = ex.getRequestBody()) {
            byte[] chunk = new byte[8192];
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                buf.write(chunk, 0, n);
                if (buf.size() > MAX_BODY) {
                    throw new TooLarge();
                }
            }
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    /** A request this server cannot make sense of: 400 with the message. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }

    /** A body over {@link #MAX_BODY}: 413. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("the request body is over " + MAX_BODY / 1024 + " KiB");
        }
    }
}
