package nvidb.core.api;

import java.time.Instant;

/** A node as the database knows it: its address and what the last probe said. */
public record NodeRecord(String name, String hostname, Integer port, String username, NodeState state,
                         boolean enabled, boolean ignored, Instant lastSeen, String lastError, int gpuCount,
                         Instant probedAt, Integer sortOrder) {
}
