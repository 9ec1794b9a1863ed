package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import nvidb.spi.alert.AlertMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The webhook sink against a real HTTP server on loopback. */
class WebhookSinkTest {

    private record Received(String method, String path, String contentType, String title, String body) {
    }

    private final AlertMessage alert = Alerts.alert(42, "job_failed", 12L, "big-node", "train failed with exit code 1");
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private volatile int status = 200;
    private volatile String answer = "ok";
    private volatile boolean hang;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                exchange.getRequestHeaders().getFirst("Content-Type"), exchange.getRequestHeaders().getFirst("Title"), body));
        if (hang) {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        if (status == 302) {
            exchange.getResponseHeaders().add("Location", "/elsewhere");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private WebhookSink sink(String path, Duration timeout, Map<String, String> headers) {
        return new WebhookSink(new WebhookSettings(url(path), timeout, headers));
    }

    @Test
    void postsTheAlertJsonWithItsHeaders() throws Exception {
        sink("/gpu-queue?x=1", Duration.ofSeconds(5), Map.of("Title", "nvidb alert")).deliver(alert);
        assertEquals(List.of(new Received("POST", "/gpu-queue?x=1", "application/json", "nvidb alert", alert.json())),
                received);
        assertTrue(received.getFirst().body().contains("\"id\": 42"), "the id travels for a consumer to drop repeats");
    }

    @Test
    void aHeaderMayReplaceTheContentType() throws Exception {
        sink("/", Duration.ofSeconds(5), Map.of("Content-Type", "text/plain")).deliver(alert);
        assertEquals("text/plain", received.getFirst().contentType());
    }

    @Test
    void aNon2xxAnswerFailsWithTheStatusAndTheStartOfTheBodyButNotThePath() {
        status = 503;
        answer = "topic\nover quota";
        IOException e = assertThrows(IOException.class,
                () -> sink("/secret-token", Duration.ofSeconds(5), Map.of()).deliver(alert));
        assertEquals("webhook http://127.0.0.1:" + server.getAddress().getPort() + " answered HTTP 503: topic over quota",
                e.getMessage());
        assertFalse(e.getMessage().contains("secret-token"));
    }

    @Test
    void aRedirectIsNotFollowedAndFails() {
        status = 302;
        answer = "";
        IOException e = assertThrows(IOException.class, () -> sink("/", Duration.ofSeconds(5), Map.of()).deliver(alert));
        assertTrue(e.getMessage().endsWith("answered HTTP 302"), e.getMessage());
        assertEquals(1, received.size(), "nothing was sent to where it pointed");
    }

    @Test
    void aServerThatDoesNotAnswerFailsAtTheTimeout() {
        hang = true;
        IOException e = assertThrows(IOException.class,
                () -> sink("/", Duration.ofMillis(500), Map.of()).deliver(alert));
        assertTrue(e.getMessage().endsWith("did not answer within 0.5s"), e.getMessage());
    }

    @Test
    void nothingListeningFailsSayingItCouldNotBeReached() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        WebhookSink sink = new WebhookSink(new WebhookSettings(URI.create("http://127.0.0.1:" + closed + "/x"),
                Duration.ofSeconds(5), Map.of()));
        IOException e = assertThrows(IOException.class, () -> sink.deliver(alert));
        assertTrue(e.getMessage().startsWith("webhook http://127.0.0.1:" + closed + " could not be reached"),
                e.getMessage());
    }
}
