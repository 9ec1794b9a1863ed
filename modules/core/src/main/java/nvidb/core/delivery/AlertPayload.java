package nvidb.core.delivery;

import java.util.LinkedHashMap;
import java.util.Map;
import nvidb.core.api.Alert;
import nvidb.core.api.Json;
import nvidb.core.api.Times;
import nvidb.spi.alert.AlertMessage;

/**
 * An alert as a sink receives it. Its JSON has the keys of the alert in {@code queue alerts --json},
 * in that order, less {@code deliveries} (what the sinks did is not part of what they are sent), on
 * one line. The {@code id} is in it, so a consumer can drop the one repeat a crash can cause.
 */
final class AlertPayload {
    private AlertPayload() {
    }

    static AlertMessage of(Alert a) {
        return new AlertMessage(a.id(), Times.iso(a.ts()), a.kind(), a.severity(), a.jobId(), a.node(), a.title(),
                a.detail(), Json.write(fields(a)));
    }

    static Map<String, Object> fields(Alert a) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("id", a.id());
        o.put("ts", Times.iso(a.ts()));
        o.put("kind", a.kind());
        o.put("severity", a.severity());
        o.put("job_id", a.jobId());
        o.put("node", a.node());
        o.put("title", a.title());
        o.put("detail", a.detail());
        o.put("acknowledged_at", Times.iso(a.acknowledgedAt()));
        o.put("notified_at", Times.iso(a.notifiedAt()));
        return o;
    }
}
