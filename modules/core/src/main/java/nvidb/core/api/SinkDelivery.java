package nvidb.core.api;

import java.time.Instant;
import java.util.Objects;

/**
 * One alert's delivery to one alert sink, as {@code queue alerts --json} shows it in the alert's
 * {@code deliveries}. A row exists from the first attempt on.
 *
 * @param sink        the sink plugin's name ({@code log}, {@code command}, {@code desktop}, {@code webhook}, …)
 * @param deliveredAt when the sink took it; never delivered to that sink again after that
 * @param skippedAt   when the sink said it cannot deliver on this machine (no notifier); not retried
 * @param attempts    how many times it was tried
 * @param nextTryAt   when a failed delivery is tried again (exponential backoff, capped)
 * @param lastError   why the last attempt failed, or why it was skipped
 */
public record SinkDelivery(String sink, Instant deliveredAt, Instant skippedAt, int attempts, Instant nextTryAt,
                           String lastError) {
    public SinkDelivery {
        Objects.requireNonNull(sink, "sink");
    }

    /** {@code delivered}, {@code skipped}, or {@code retrying} (failed; tried again at {@code nextTryAt}). */
    public String state() {
        if (deliveredAt != null) {
            return "delivered";
        }
        return skippedAt != null ? "skipped" : "retrying";
    }

    /** Delivered or skipped: this sink is done with the alert. */
    public boolean settled() {
        return deliveredAt != null || skippedAt != null;
    }
}
