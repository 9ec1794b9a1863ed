package nvidb.core.api;

import java.time.Instant;

/** One entry of the append-only event log; {@code dataJson} is a JSON object or null. */
public record Event(long id, Instant ts, String kind, Long jobId, String node, String message, String dataJson) {
}
