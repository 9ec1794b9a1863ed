package nvidb.core.api;

import java.time.Instant;

/**
 * One entry of the append-only event log; {@code dataJson} is a JSON object or null; {@code by}
 * is who asked for the operation that wrote it, null for what a scheduler pass did on its own.
 */
public record Event(long id, Instant ts, String kind, Long jobId, String node, String message, String dataJson,
                    By by) {
    /** The {@link Caller} an event recorded: OS account, submitter label, front end ({@code cli}, {@code web}, …). */
    public record By(String account, String submitter, String via) {
    }
}
