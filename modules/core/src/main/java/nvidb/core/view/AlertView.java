package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import nvidb.core.api.Alert;
import nvidb.core.api.SinkDelivery;
import nvidb.core.api.Times;

/**
 * An alert as an alert sink receives it, and as {@code queue alerts --json} shows it less
 * {@code deliveries} (what the sinks did is not part of what they are sent): one record for both,
 * so a consumer of either reads the same keys.
 */
public record AlertView(long id, String ts, String kind, String severity, Long jobId, String node, String title,
                        String detail, String acknowledgedAt, String notifiedAt) {
    public static AlertView of(Alert a) {
        return new AlertView(a.id(), Times.iso(a.ts()), a.kind(), a.severity(), a.jobId(), a.node(), a.title(),
                a.detail(), Times.iso(a.acknowledgedAt()), Times.iso(a.notifiedAt()));
    }

    /** The alert with what each sink did with it. */
    public record Listed(@JsonUnwrapped AlertView alert, List<Delivery> deliveries) {
        public static Listed of(Alert a) {
            return new Listed(AlertView.of(a), a.deliveries().stream().map(Delivery::of).toList());
        }
    }

    /** One sink's delivery of the alert. */
    public record Delivery(String sink, String state, String deliveredAt, String skippedAt, int attempts,
                           String nextTryAt, String lastError) {
        static Delivery of(SinkDelivery d) {
            return new Delivery(d.sink(), d.state(), Times.iso(d.deliveredAt()), Times.iso(d.skippedAt()), d.attempts(),
                    Times.iso(d.nextTryAt()), d.lastError());
        }
    }
}
