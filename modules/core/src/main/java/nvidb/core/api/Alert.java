package nvidb.core.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

    /**
     * The alert as an alert sink receives it, and as {@code queue alerts --json} shows it less
     * {@code deliveries} (what the sinks did is not part of what they are sent): one definition for
     * both, so a consumer of either reads the same keys. A new object at each call.
     */
    public ObjectNode payload() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", id);
        o.put("ts", Times.iso(ts));
        o.put("kind", kind);
        o.put("severity", severity);
        o.put("job_id", jobId);
        o.put("node", node);
        o.put("title", title);
        o.put("detail", detail);
        o.put("acknowledged_at", Times.iso(acknowledgedAt));
        o.put("notified_at", Times.iso(notifiedAt));
        return o;
    }
}
