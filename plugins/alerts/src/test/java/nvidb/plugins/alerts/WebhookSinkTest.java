package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import nvidb.spi.alert.AlertMessage;
import nvidb.testkit.WebhookServer;
import nvidb.testkit.WebhookServer.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The webhook sink against a real HTTP server on loopback. */
class WebhookSinkTest {

    private final AlertMessage alert = Alerts.alert(42, "job_failed", 12L, "big-node", "train failed with exit code 1");
    private final WebhookServer server = WebhookServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    private WebhookSink sink(String path, Duration timeout, Map<String, String> headers) {
        return new WebhookSink(new WebhookSettings(server.url(path), timeout, headers));
    }

    private String where() {
        return "http://127.0.0.1:" + server.port();
    }

    @Test
    void postsTheAlertJsonWithItsHeaders() throws Exception {
        sink("/gpu-queue?x=1", Duration.ofSeconds(5), Map.of("Title", "nvidb alert")).deliver(alert);
        List<WebhookServer.Request> got = server.requests();
        assertEquals(1, got.size());
        WebhookServer.Request r = got.getFirst();
        assertEquals(List.of("POST", "/gpu-queue?x=1", "application/json", "nvidb alert", alert.json()),
                List.of(r.method(), r.path(), r.header("Content-Type"), r.header("Title"), r.body()));
        assertTrue(r.body().contains("\"id\": 42"), "the id travels for a consumer to drop repeats");
    }

    @Test
    void aHeaderMayReplaceTheContentType() throws Exception {
        sink("/", Duration.ofSeconds(5), Map.of("Content-Type", "text/plain")).deliver(alert);
        assertEquals("text/plain", server.requests().getFirst().header("content-type"));
    }

    @Test
    void aNon2xxAnswerFailsWithTheStatusAndTheStartOfTheBodyButNotThePath() {
        server.answer(Response.of(503, "topic\nover quota"));
        IOException e = assertThrows(IOException.class,
                () -> sink("/secret-token", Duration.ofSeconds(5), Map.of()).deliver(alert));
        assertEquals("webhook " + where() + " answered HTTP 503: topic over quota", e.getMessage());
        assertFalse(e.getMessage().contains("secret-token"));
    }

    @Test
    void aRedirectIsNotFollowedAndFails() {
        server.answer(new Response(302, "", "/elsewhere", false));
        IOException e = assertThrows(IOException.class, () -> sink("/", Duration.ofSeconds(5), Map.of()).deliver(alert));
        assertEquals("webhook " + where() + " answered HTTP 302", e.getMessage());
        assertEquals(1, server.requests().size(), "nothing was sent to where it pointed");
    }

    @Test
    void aServerThatDoesNotAnswerFailsAtTheTimeout() {
        server.answer(new Response(200, "late", null, true));
        IOException e = assertThrows(IOException.class,
                () -> sink("/", Duration.ofMillis(500), Map.of()).deliver(alert));
        assertEquals("webhook " + where() + " did not answer within 0.5s", e.getMessage());
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
