package nvidb.core.delivery;

import java.time.Duration;

/**
 * How long a failed delivery waits before it is tried again: 30 s after the first failure, doubling
 * with each further one, never more than an hour. A sink that is down for a day is then tried about
 * 30 times that day, not at every pass, and one that comes back is used again within the hour.
 */
public final class DeliveryBackoff {
    public static final Duration FIRST = Duration.ofSeconds(30);
    public static final Duration CAP = Duration.ofHours(1);

    private DeliveryBackoff() {
    }

    /** The wait after the {@code attempts}-th failed attempt (1 for the first failure). */
    public static Duration after(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts start at 1, not " + attempts);
        }
        // 2^7 · 30 s already passes the hour; capping the exponent keeps the shift from overflowing.
        long factor = 1L << Math.min(attempts - 1, 20);
        Duration wait = FIRST.multipliedBy(factor);
        return wait.compareTo(CAP) > 0 ? CAP : wait;
    }
}
