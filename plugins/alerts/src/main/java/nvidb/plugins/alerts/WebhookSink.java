package nvidb.plugins.alerts;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;

/**
 * POSTs each alert's JSON to a URL with the JDK's HTTP client: ntfy, a Slack-style incoming
 * webhook, or any endpoint of one's own. A 2xx answer is a delivery; anything else (another status,
 * no answer within the timeout, no connection) fails it, so core retries it later. Redirects are
 * not followed: a POST turned into a GET by a redirect would be reported delivered while nothing
 * received the alert.
 */
final class WebhookSink implements AlertSink {

    /** How much of an error answer's body goes into the failure message. */
    private static final int BODY_EXCERPT = 200;

    private final WebhookSettings settings;
    private final HttpClient client;

    WebhookSink(WebhookSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                // Plain HTTP/1.1: an h2c upgrade offer on http:// confuses small endpoints, and one
                // short POST gains nothing from HTTP/2.
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    @Override
    public void deliver(AlertMessage alert) throws IOException, InterruptedException {
        Objects.requireNonNull(alert, "alert");
        HttpRequest.Builder request = HttpRequest.newBuilder(settings.url())
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", "nvidb")
                .POST(HttpRequest.BodyPublishers.ofString(alert.json(), StandardCharsets.UTF_8));
        settings.headers().forEach(request::setHeader);
        HttpResponse<InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new IOException("webhook " + settings.where() + " did not answer within "
                    + ChildProcess.seconds(settings.timeout()), e);
        } catch (ConnectException e) {
            throw new IOException("webhook " + settings.where() + " could not be reached: " + reason(e), e);
        } catch (IOException e) {
            throw new IOException("webhook " + settings.where() + " failed: " + reason(e), e);
        }
        try (InputStream body = response.body()) {
            int status = response.statusCode();
            if (status / 100 != 2) {
                throw new IOException("webhook " + settings.where() + " answered HTTP " + status + excerpt(body));
            }
        }
    }

    /** The start of an error answer's body on one line, so the failure says what the server said. */
    private static String excerpt(InputStream body) throws IOException {
        String text = new String(body.readNBytes(BODY_EXCERPT * 4), StandardCharsets.UTF_8)
                .replaceAll("\\s+", " ").strip();
        if (text.isEmpty()) {
            return "";
        }
        return ": " + (text.length() <= BODY_EXCERPT ? text : text.substring(0, BODY_EXCERPT) + "…");
    }

    private static String reason(IOException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
