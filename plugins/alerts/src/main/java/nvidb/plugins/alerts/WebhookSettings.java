package nvidb.plugins.alerts;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;

/**
 * {@code queue.notify.webhook}: a URL ({@code webhook: https://ntfy.sh/my-queue}), or a mapping
 * with {@code url}, {@code timeout} (seconds, default 10) and {@code headers} (name: value). Empty
 * or {@code false}: no webhook.
 *
 * @param url     where each alert is POSTed; http or https
 * @param timeout how long one delivery may take, connection included
 * @param headers sent with every request, after the defaults, so they may replace Content-Type
 */
record WebhookSettings(URI url, Duration timeout, Map<String, String> headers) {
    static final String KEY = "webhook";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Core stops waiting for any one delivery after a minute; a longer timeout could never run out. */
    static final double MAX_TIMEOUT_SECONDS = 60;
    private static final Set<String> KEYS = Set.of("url", "timeout", "headers");

    WebhookSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(timeout, "timeout");
        headers = Map.copyOf(headers);
    }

    /**
     * Where the webhook is, for messages: scheme, host and port only. The path and query of a
     * Slack or ntfy URL are its secret, and messages end up in the database.
     */
    String where() {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
    }

    /** Checks the {@code webhook} key of {@code queue.notify}, naming file, line and key in every error. */
    static void validate(ConfigSection notify) {
        ConfigValue v = notify.value(KEY).orElse(null);
        if (v == null || v.value() == null || Boolean.FALSE.equals(v.value())) {
            return;
        }
        if (Boolean.TRUE.equals(v.value())) {
            throw notify.error(KEY, "needs the address to POST alerts to: webhook: https://… or a mapping with url:");
        }
        if (!v.isMapping()) {
            url(v.string(notify.key(KEY), null), problem -> notify.error(KEY, problem));
            return;
        }
        ConfigSection w = new ConfigSection(notify.key(KEY), v);
        w.requireKnownKeys(KEYS);
        String url = w.string("url", null);
        if (url == null) {
            throw w.error("url", "is required: the address to POST alerts to, e.g. https://ntfy.sh/my-queue");
        }
        url(url, problem -> w.error("url", problem));
        double seconds = w.number("timeout", DEFAULT_TIMEOUT.toSeconds());
        if (seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
            throw w.error("timeout", "must be a number of seconds above 0 and at most "
                    + (int) MAX_TIMEOUT_SECONDS + ", not " + w.value("timeout").orElseThrow().describe());
        }
        ConfigValue headers = w.value("headers").orElse(null);
        if (headers != null && headers.value() != null) {
            ConfigSection h = new ConfigSection(w.key("headers"), headers);
            for (String name : h.keys()) {
                String value = h.string(name, "");
                String problem = headerProblem(name, value);
                if (problem != null) {
                    throw h.error(name, problem);
                }
            }
        }
    }

    /**
     * The settings core hands over (already validated), or empty when no webhook is configured.
     *
     * @throws IllegalArgumentException a value no validation would have let through
     */
    static Optional<WebhookSettings> from(Map<String, Object> notify) {
        Object value = notify == null ? null : notify.get(KEY);
        if (value == null || Boolean.FALSE.equals(value)) {
            return Optional.empty();
        }
        if (value instanceof String s) {
            return Optional.of(new WebhookSettings(url(s, IllegalArgumentException::new), DEFAULT_TIMEOUT, Map.of()));
        }
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("queue.notify.webhook must be a URL or a mapping with url:, not " + value);
        }
        URI url = url(Objects.toString(m.get("url"), null), IllegalArgumentException::new);
        Duration timeout = m.get("timeout") instanceof Number n
                ? Duration.ofMillis(BigDecimal.valueOf(n.doubleValue()).movePointRight(3).longValue())
                : DEFAULT_TIMEOUT;
        Map<String, String> headers = new LinkedHashMap<>();
        if (m.get("headers") instanceof Map<?, ?> h) {
            h.forEach((k, v) -> headers.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
        }
        return Optional.of(new WebhookSettings(url, timeout, headers));
    }

    /** Makes the exception a bad URL becomes: a configuration error, or an argument error after it. */
    @FunctionalInterface
    private interface Refusal<E extends RuntimeException> {
        E refuse(String problem);
    }

    private static <E extends RuntimeException> URI url(String text, Refusal<E> refusal) {
        if (text == null || text.isBlank()) {
            throw refusal.refuse("needs the address to POST alerts to, e.g. https://ntfy.sh/my-queue");
        }
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw refusal.refuse("must be an http or https URL, not '" + text + "' (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw refusal.refuse("must be an http or https URL with a host, e.g. https://ntfy.sh/my-queue, not '"
                    + text + "'");
        }
        return uri;
    }

    /** Why the JDK's HTTP client would refuse this header (a restricted or malformed name), or null. */
    private static String headerProblem(String name, String value) {
        try {
            HttpRequest.newBuilder().header(name, value);
            return null;
        } catch (IllegalArgumentException e) {
            return "is not a header the HTTP client may send (" + e.getMessage() + ")";
        }
    }
}
