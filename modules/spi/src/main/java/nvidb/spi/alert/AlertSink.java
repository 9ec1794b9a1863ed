package nvidb.spi.alert;

/** Delivers alerts somewhere. A delivery that throws is retried later with backoff. */
public interface AlertSink {

    /** @throws Exception the alert was not delivered and should be tried again later */
    void deliver(AlertMessage alert) throws Exception;
}
