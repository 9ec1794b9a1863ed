package nvidb.spi.transport;

import java.time.Duration;

/**
 * Runs POSIX shell scripts on one node. A script is fed to {@code sh -s} on the node, so a
 * round trip is one script, whatever it does. Connection reuse, timeouts and retries live behind
 * this interface; callers see either a result or a {@link TransportException}.
 */
public interface Transport extends AutoCloseable {

    /**
     * Runs {@code script} with {@code sh} on the node and waits at most {@code timeout}.
     *
     * @param idempotent whether running the script twice is harmless, so a transport may retry
     *                   it once on a fresh connection after a failed round trip
     * @throws TransportException the node could not be reached, or did not answer in time
     */
    ExecResult run(String script, Duration timeout, boolean idempotent) throws TransportException;

    @Override
    void close();
}
