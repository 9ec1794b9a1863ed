package nvidb.spi.alert;

/**
 * Delivers alerts somewhere. Core calls it once per alert until a call returns, and records that
 * return as the delivery; a delivery that throws is retried on later passes with backoff. A crash
 * between a call's return and core's record repeats that one delivery, so the alert's id travels in
 * {@link AlertMessage#json()} for a consumer to drop the repeat. Core stops waiting for one call
 * after a minute (interrupting it), so a sink bounds its own waits with a shorter timeout.
 */
public interface AlertSink {

    /**
     * @throws DeliverySkippedException this sink cannot deliver on this machine: the alert is
     *                                  recorded as skipped for it, and not retried
     * @throws Exception                the alert was not delivered and should be tried again later
     */
    void deliver(AlertMessage alert) throws Exception;
}
