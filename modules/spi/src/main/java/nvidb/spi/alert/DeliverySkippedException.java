package nvidb.spi.alert;

/**
 * Thrown by {@link AlertSink#deliver} when the sink cannot deliver on this machine and trying again
 * would not help: the program it drives is not installed (a desktop notifier on a headless server).
 * Core records the alert as skipped for that sink (not delivered, never retried, never an error)
 * and counts the sink as done with it; the message says why, once, in the pass summary.
 */
public final class DeliverySkippedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param reason a sentence saying what is missing and how to stop the sink from trying */
    public DeliverySkippedException(String reason) {
        super(reason);
    }
}
