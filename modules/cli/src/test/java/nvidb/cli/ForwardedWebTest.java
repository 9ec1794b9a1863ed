package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import nvidb.testkit.ProcessLines;
import org.junit.jupiter.api.Test;

/**
 * {@code nvidb queue web} on a client with {@code remote:}: the server runs on the queue host (a
 * real sshd on loopback), this command opens an ssh port forward to it and prints this machine's
 * link; the page and the API answer through it with the host's queue; Ctrl-C stops the server
 * there and closes the forward; a port taken here is a clear error that leaves nothing running.
 */
class ForwardedWebTest extends QueueHostTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void theHostsServerIsReachedHereThroughAPortForwardUntilCtrlC() throws Exception {
        long id = q.host.json("job", "submit", "--gpus", "0", "--no-tick", "--name", "on-the-host", "--", "true")
                .path("job").path("id").asLong();
        int port = freePort();
        Process web = q.startClient("queue", "web", "--listen", "127.0.0.1:" + port);
        BufferedReader out = new BufferedReader(new InputStreamReader(web.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> readLine(out)).get(90, TimeUnit.SECONDS);
        assertTrue(line != null && line.startsWith("nvidb queue web: http://127.0.0.1:" + port + "/#token="),
                "this machine's link: " + line);
        String token = line.substring(line.indexOf("#token=") + "#token=".length());
        assertEquals(java.nio.file.Files.readString(q.host.nvidbHome().resolve("web.token")).strip(), token,
                "the link carries the host's token");

        HttpResponse<String> page = get(port, "/", null);
        assertEquals(200, page.statusCode());
        HttpResponse<String> job = get(port, "/api/v1/jobs/" + id, token);
        assertEquals(200, job.statusCode(), job.body());
        JsonNode doc = Cli.JSON.readTree(job.body());
        assertEquals("on-the-host", doc.path("name").asText(), job.body());
        HttpResponse<String> cancel = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/jobs/" + id + "/cancel")).header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, cancel.statusCode(), cancel.body());
        assertEquals("cancelled", q.host.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText(),
                "the action reached the host's queue");

        QueueHostFixture.terminalCtrlC(web);
        Cli.Result r = Cli.finish(web, 60);
        assertEquals(0, r.exit(), r.toString());
        QueueHostFixture.awaitNoForwardedCommand();
        awaitNoForward(port);
        assertFalse(accepts(port), "the forward is closed");
    }

    @Test
    void aPortTakenHereIsAClearErrorAndStopsTheServerThere() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = taken.getLocalPort();
            Process web = q.startClient("queue", "web", "--listen", "127.0.0.1:" + port, "--json");
            Cli.Result r = Cli.finish(web, 90);
            assertEquals(69, r.exit(), r.toString());
            JsonNode doc = r.json();
            assertEquals("unavailable", doc.path("code").asText(), r.toString());
            assertTrue(doc.path("error").asText().contains("could not forward 127.0.0.1:" + port), r.toString());
            assertTrue(doc.path("error").asText().contains("--listen"), "says how to pick another port: " + r);
            QueueHostFixture.awaitNoForwardedCommand();
            awaitNoForward(port);
        }
    }

    private HttpResponse<String> get(int port, String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String readLine(BufferedReader in) {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits until no ssh forwards {@code port} any more (30 s at most). */
    private static void awaitNoForward(int port) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (ProcessHandle.allProcesses().anyMatch(p -> ProcessLines.of(p).contains("-L 127.0.0.1:" + port + ":"))) {
            assertTrue(Instant.now().isBefore(deadline), "the ssh of the port forward still runs");
            Thread.sleep(100);
        }
    }
}
