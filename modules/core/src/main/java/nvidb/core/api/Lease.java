package nvidb.core.api;

import java.time.Instant;

/** A named lease in the database; owner null means free. */
public record Lease(String name, String owner, Instant acquiredAt, Instant expiresAt) {
}
