package nvidb.core.api;

import java.time.Instant;
import java.util.List;

/**
 * Something that needs a person's attention; open until acknowledged.
 *
 * @param notifiedAt when its delivery was settled: every alert sink it was due to took it (or
 *                   skipped it); set at once for an alert no sink was due (below
 *                   {@code min_severity}, or notifications off)
 * @param deliveries its delivery to each sink tried so far, by sink name
 */
public record Alert(long id, Instant ts, String kind, String severity, Long jobId, String node, String title,
                    String detail, Instant acknowledgedAt, Instant notifiedAt, List<SinkDelivery> deliveries) {
    public Alert {
        deliveries = deliveries == null ? List.of() : List.copyOf(deliveries);
    }

    /** An alert whose deliveries were not read. */
    public Alert(long id, Instant ts, String kind, String severity, Long jobId, String node, String title,
                 String detail, Instant acknowledgedAt, Instant notifiedAt) {
        this(id, ts, kind, severity, jobId, node, title, detail, acknowledgedAt, notifiedAt, List.of());
    }

    public boolean open() {
        return acknowledgedAt == null;
    }
}
