package nvidb.core.delivery;

import nvidb.core.api.Alert;
import nvidb.core.api.Json;
import nvidb.core.api.Times;
import nvidb.spi.alert.AlertMessage;

/**
 * An alert as a sink receives it: {@link Alert#payload()} on one line. The {@code id} is in it, so
 * a consumer can drop the one repeat a crash can cause.
 */
final class AlertPayload {
    private AlertPayload() {
    }

    static AlertMessage of(Alert a) {
        return new AlertMessage(a.id(), Times.iso(a.ts()), a.kind(), a.severity(), a.jobId(), a.node(), a.title(),
                a.detail(), Json.write(a.payload()));
    }
}
