package nvidb.spi.transport;

/** The node could not be reached or did not answer: the node is down, not the job broken. */
public class TransportException extends Exception {
    private static final long serialVersionUID = 1L;

    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
