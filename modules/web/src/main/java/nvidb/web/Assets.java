package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The page: one HTML file, one script, one style sheet, shipped in this module and served from a
 * fixed list (no path reaches a file system). No build step, nothing from a CDN.
 */
final class Assets {
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/app.js", "app.js",
            "/app.css", "app.css");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8");

    private Assets() {
    }

    static boolean serves(String path) {
        return FILES.containsKey(path);
    }

    static void send(HttpExchange ex, String path) throws IOException {
        String name = FILES.get(path);
        Http.send(ex, 200, TYPES.get(name.substring(name.lastIndexOf('.') + 1)), bytes(name));
    }

    private static byte[] bytes(String name) {
        try (InputStream in = Assets.class.getResourceAsStream("assets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the web module was built without its asset " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
