package nvidb.core.api;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The per-user tokens of the web server and its {@code /mcp}, kept in the queue database so the
 * daemon's web and {@code queue web} on any host see the same ones. Only a token's SHA-256 is
 * stored; the token itself is shown once, when made ({@code nvidb.core.app.WebTokenOperations}).
 */
public interface WebTokens {
    /** One token as stored: never the token. {@code lastUsedAt} is null until used, and updated at most once a minute. */
    record Stored(long id, String user, Instant createdAt, String createdBy, Instant lastUsedAt) {
    }

    /** Keeps a new token's hash for {@code user}. */
    Stored add(String user, byte[] sha256, String createdBy);

    /** Every token, oldest first. */
    List<Stored> list();

    /** Removes the token {@code id}; what was removed (none: an unknown id). */
    List<Stored> revoke(long id);

    /** Removes every token of {@code user}; what was removed. */
    List<Stored> revokeAll(String user);

    /**
     * The token whose hash is {@code sha256}, every stored hash compared in constant time, and
     * its use noted; empty when none is (a revoked token included).
     */
    Optional<Stored> match(byte[] sha256);
}
