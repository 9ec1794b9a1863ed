package nvidb.spi.alert;

import java.util.Objects;

/**
 * One alert as a sink receives it. {@code json} is the alert exactly as {@code queue alerts
 * --json} prints it, so sinks that forward JSON need no serializer of their own.
 */
public record AlertMessage(long id, String ts, String kind, String severity, Long jobId, String node,
                           String title, String detail, String json) {
    public AlertMessage {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(json, "json");
    }
}
