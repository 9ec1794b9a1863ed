package nvidb.spi.alert;

import java.util.Objects;

/**
 * One alert as a sink receives it. {@code json} is the alert as {@code queue alerts --json} prints
 * it, on one line and without its per-sink {@code deliveries}, so sinks that forward JSON need no
 * serializer of their own. Its {@code id} lets a consumer drop the one repeat a crash can cause
 * (see {@link AlertSink}).
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
