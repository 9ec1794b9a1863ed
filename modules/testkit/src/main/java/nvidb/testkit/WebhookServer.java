package nvidb.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP endpoint on loopback (the JDK's own server) standing in for ntfy or a Slack-style
 * webhook: it records every request and answers each with the next scripted response, or the
 * standing one when none is left. Tests reach it only through this class, so no test module has
 * to read {@code jdk.httpserver} itself.
 */
public final class WebhookServer implements AutoCloseable {

    /** One request as it arrived; header names in lower case. */
    public record Request(String method, String path, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * What to answer.
     *
     * @param location a {@code Location} header (for a redirect), or null
     * @param hang     hold the answer back until the server closes (a server that never answers)
     */
    public record Response(int status, String body, String location, boolean hang) {
        public Response {
            Objects.requireNonNull(body, "body");
        }

        public static Response of(int status, String body) {
            return new Response(status, body, null, false);
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Response> scripted = new ConcurrentLinkedQueue<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Response standing = Response.of(200, "ok");

    private WebhookServer(HttpServer server) {
        this.server = server;
    }

    /** Starts listening on a free loopback port, answering 200 until told otherwise. */
    public static WebhookServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            WebhookServer hook = new WebhookServer(server);
            server.createContext("/", hook::handle);
            // A thread per request: one held back (hang) must not keep the next from its answer.
            server.setExecutor(Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "nvidb-test-webhook");
                t.setDaemon(true);
                return t;
            }));
            server.start();
            return hook;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a loopback HTTP server", e);
        }
    }

    /** The answer to every request after the scripted ones. */
    public WebhookServer answer(Response response) {
        standing = Objects.requireNonNull(response, "response");
        return this;
    }

    /** The next {@code times} requests get {@code response}, in order after those scripted before. */
    public WebhookServer thenAnswer(int times, Response response) {
        for (int i = 0; i < times; i++) {
            scripted.add(Objects.requireNonNull(response, "response"));
        }
        return this;
    }

    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Every request so far, in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), values.isEmpty() ? "" : values.getFirst()));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers, body));
            Response response = scripted.poll();
            if (response == null) {
                response = standing;
            }
            if (response.hang()) {
                closing.await(60, TimeUnit.SECONDS);
            }
            if (response.location() != null) {
                exchange.getResponseHeaders().add("Location", response.location());
            }
            byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
    }
}
