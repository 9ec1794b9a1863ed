package nvidb.core.api;

import java.time.Instant;

/** Something that needs a person's attention; open until acknowledged. */
public record Alert(long id, Instant ts, String kind, String severity, Long jobId, String node, String title,
                    String detail, Instant acknowledgedAt, Instant notifiedAt) {
    public boolean open() {
        return acknowledgedAt == null;
    }
}
