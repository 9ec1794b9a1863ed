package nvidb.core.node;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Backoff for nodes whose round trips fail, for a queue that lives long (the daemon): a node that
 * is down is dialled again after 1 s, then 2, 4, … up to a minute, not on every pass. Without
 * it, every pass the daemon makes at once on a submit would wait out the dead node's connect
 * timeout, and the live nodes' jobs with it. A success forgets the failures. A command's queue
 * lives for one pass or two and has none: it always tries.
 */
final class Reconnects {
    static final Duration FIRST = Duration.ofSeconds(1);
    static final Duration CAP = Duration.ofMinutes(1);

    private record Failure(int count, Instant retryAt, String error) {
    }

    private final Map<String, Failure> failures = new ConcurrentHashMap<>();

    /** Why a round trip to {@code node} is not tried now, or null to try it. */
    String refusal(String node, Instant now) {
        Failure f = failures.get(node);
        if (f == null || !now.isBefore(f.retryAt())) {
            return null;
        }
        long left = Math.max(1, Duration.between(now, f.retryAt()).toMillis() / 1000);
        return f.error() + " (" + f.count() + " failure" + (f.count() == 1 ? "" : "s")
                + " in a row; tried again in " + left + " s)";
    }

    void failed(String node, String error, Instant now) {
        failures.compute(node, (k, f) -> {
            int count = f == null ? 1 : f.count() + 1;
            Duration wait = FIRST.multipliedBy(1L << Math.min(count - 1, 16));
            if (wait.compareTo(CAP) > 0) {
                wait = CAP;
            }
            return new Failure(count, now.plus(wait), error);
        });
    }

    void succeeded(String node) {
        failures.remove(node);
    }
}
