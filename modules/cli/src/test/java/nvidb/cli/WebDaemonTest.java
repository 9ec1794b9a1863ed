package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon serves the web pages where {@code queue.web.listen} says, and stops serving when it stops. */
class WebDaemonTest {
    @TempDir
    Path tmp;

    @Test
    void theDaemonServesTheWebWhenListenIsSet() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Cli cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n  web:\n    listen: 127.0.0.1:" + port + "\n");
        long id = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();
        HttpClient http = HttpClient.newHttpClient();
        URI status = URI.create("http://127.0.0.1:" + port + "/api/v1/jobs/" + id);
        try (DaemonProcess daemon = DaemonProcess.start(cli, "--interval", "60")) {
            daemon.awaitFirstPass();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"id\": " + id), r.body());
            String token = Files.readString(cli.nvidbHome().resolve("web.token")).strip();
            HttpResponse<String> cancel = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/v1/jobs/" + id + "/cancel")).header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, cancel.statusCode(), cancel.body());
            assertEquals(0, daemon.signalAndWait("TERM", Duration.ofSeconds(30)));
        }
        assertEquals("cancelled", cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText());
        assertThrows(java.io.IOException.class, () -> http.send(HttpRequest.newBuilder(status).build(),
                HttpResponse.BodyHandlers.ofString()), "nothing listens once the daemon stopped");
    }
}
