package nvidb.plugins.alerts;

import java.util.Map;
import java.util.Objects;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.AlertSinkFactory;
import nvidb.spi.alert.SinkContext;
import nvidb.spi.config.ConfigSection;

/** {@code queue.notify.webhook} (off unless set): each alert's JSON POSTed to a URL. */
public final class WebhookSinkFactory implements AlertSinkFactory {

    @Override
    public String name() {
        return WebhookSettings.KEY;
    }

    /** {@code queue.notify.webhook}: a URL, or {@code url}, {@code timeout} and {@code headers}; see {@link WebhookSettings}. */
    @Override
    public void validate(ConfigSection notify) {
        WebhookSettings.validate(notify);
    }

    @Override
    public AlertSink create(Map<String, Object> settings, SinkContext context) {
        Objects.requireNonNull(context, "context");
        if (!NotifySettings.enabled(settings)) {
            return null;
        }
        return WebhookSettings.from(settings).map(WebhookSink::new).orElse(null);
    }
}
