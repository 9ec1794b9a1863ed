package nvidb.core.delivery;

import nvidb.core.api.Alert;
import nvidb.core.api.Json;
import nvidb.core.api.Times;
import nvidb.core.view.AlertView;
import nvidb.spi.alert.AlertMessage;

/**
 * An alert as a sink receives it: {@link AlertView} on one line, the record {@code queue alerts --json} shows. The {@code id} is in it, so
 * a consumer can drop the one repeat a crash can cause.
 */
final class AlertPayload {
    private AlertPayload() {
    }

    static AlertMessage of(Alert a) {
        return new AlertMessage(a.id(), Times.iso(a.ts()), a.kind(), a.severity(), a.jobId(), a.node(), a.title(),
                a.detail(), Json.write(AlertView.of(a)));
    }
}
