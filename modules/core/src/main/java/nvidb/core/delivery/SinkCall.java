package nvidb.core.delivery;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import nvidb.core.api.NvidbException;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.DeliverySkippedException;

/**
 * One call of a sink's {@code deliver}, on a thread of its own so that the pass can stop waiting
 * for it: a sink that ignores its own timeout (a site plugin) costs the pass {@code cap} at most,
 * and is interrupted.
 */
final class SinkCall {

    /** How a call ended. {@code detail}: why it failed or was skipped, on one line; null when delivered. */
    record Outcome(String outcome, String detail) {
        static final String DELIVERED = "delivered";
        static final String FAILED = "failed";
        static final String SKIPPED = "skipped";
    }

    /** The longest a failure message kept in the database gets. */
    private static final int MAX_DETAIL = 1000;

    private SinkCall() {
    }

    /**
     * @param cap    how long to wait for the call before interrupting it
     * @param budget why {@code cap} is what it is when the pass's budget set it (a failure then
     *               says so), or null when it is the call cap
     * @throws NvidbException interrupted: this thread was interrupted (Ctrl-C, SIGTERM) while it
     *                        waited; the call is interrupted too and nothing is recorded
     */
    static Outcome deliver(String name, AlertSink sink, AlertMessage alert, Duration cap, String budget) {
        FutureTask<Void> call = new FutureTask<>(() -> {
            sink.deliver(alert);
            return null;
        });
        Thread.ofVirtual().name("nvidb-alert-" + name).start(call);
        try {
            call.get(cap.toNanos(), TimeUnit.NANOSECONDS);
            return new Outcome(Outcome.DELIVERED, null);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof DeliverySkippedException) {
                return new Outcome(Outcome.SKIPPED, oneLine(cause.getMessage()));
            }
            return new Outcome(Outcome.FAILED, describe(cause));
        } catch (TimeoutException e) {
            call.cancel(true);
            if (budget != null) {
                return new Outcome(Outcome.FAILED, "the " + name + " sink had not finished when " + budget
                        + "; it was interrupted and is tried again later");
            }
            return new Outcome(Outcome.FAILED, "the " + name + " sink did not finish within " + seconds(cap)
                    + " s and was interrupted");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw NvidbException.interrupted();
        }
    }

    /** {@code 2}, {@code 0.25}: a duration in seconds as a message says it. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        // A bare exception with no message (a plugin's NullPointerException) still says what it was.
        return oneLine(message == null || message.isBlank() ? t.getClass().getName() : message);
    }

    private static String oneLine(String text) {
        String line = String.valueOf(text).replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_DETAIL ? line : line.substring(0, MAX_DETAIL - 1) + "…";
    }
}
