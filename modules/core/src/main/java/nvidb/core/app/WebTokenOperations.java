package nvidb.core.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import nvidb.core.api.WebTokens;

/**
 * {@code nvidb queue web token add/ls/revoke}, and the web server's question "whose token is
 * this?". A token is 32 random bytes (base64url), shown once; the database keeps its SHA-256.
 * Who may make or revoke a user's token: that user, an account of {@code queue.admins}, and the
 * account that owns the queue database (its owner, who could write the table anyway). Anyone may
 * list them: the list never holds a token.
 */
public final class WebTokenOperations {
    /** A token just made: the one time it is shown. */
    public record Issued(long id, String user, String token, String createdAt) {
    }

    /** One token as listed: never the token. */
    public record Listed(long id, String user, String createdAt, String createdBy, String lastUsedAt) {
        static Listed of(WebTokens.Stored s) {
            return new Listed(s.id(), s.user(), Times.iso(s.createdAt()), s.createdBy(), Times.iso(s.lastUsedAt()));
        }
    }

    /** What {@code revoke} removed. */
    public record Revoked(List<Listed> revoked) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Application app;

    WebTokenOperations(Application app) {
        this.app = app;
    }

    /** Makes a token for {@code user}. */
    public Issued add(Caller caller, String user) {
        if (!SharedAccountUsers.isUserName(user)) {
            throw NvidbException.usage("a token is for a user, named like an account: a lowercase letter or _, then up to 31"
                    + " lowercase letters, digits, _ or - (such as alice), not '" + user + "'");
        }
        requireManager(caller, user, "make a web token for");
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        WebTokens.Stored stored = app.queue().webTokens().add(user, sha256(token), caller.account());
        return new Issued(stored.id(), stored.user(), token, Times.iso(stored.createdAt()));
    }

    public List<Listed> list(Caller caller) {
        return app.queue().webTokens().list().stream().map(Listed::of).toList();
    }

    /** Revokes token {@code idOrUser} (a number), or every token of that user (a name). */
    public Revoked revoke(Caller caller, String idOrUser) {
        WebTokens tokens = app.queue().webTokens();
        if (idOrUser != null && idOrUser.matches("\\d{1,18}")) {
            long id = Long.parseLong(idOrUser);
            Optional<WebTokens.Stored> token = tokens.list().stream().filter(t -> t.id() == id).findFirst();
            if (token.isEmpty()) {
                throw NvidbException.notFound("no web token " + id + " (nvidb queue web token ls lists them)");
            }
            requireManager(caller, token.get().user(), "revoke the web token of");
            return new Revoked(tokens.revoke(id).stream().map(Listed::of).toList());
        }
        if (!SharedAccountUsers.isUserName(idOrUser)) {
            throw NvidbException.usage("revoke takes a token's id (a number, from nvidb queue web token ls) or a user's name,"
                    + " not '" + idOrUser + "'");
        }
        requireManager(caller, idOrUser, "revoke the web tokens of");
        List<Listed> gone = tokens.revokeAll(idOrUser).stream().map(Listed::of).toList();
        if (gone.isEmpty()) {
            throw NvidbException.notFound(idOrUser + " has no web token (nvidb queue web token ls lists them)");
        }
        return new Revoked(gone);
    }

    /** The user whose token {@code offered} is, or empty: unknown, revoked, or not a token at all. */
    public Optional<String> userOf(String offered) {
        if (offered == null || offered.isEmpty() || offered.length() > 200) {
            return Optional.empty();
        }
        return app.queue().webTokens().match(sha256(offered)).map(WebTokens.Stored::user);
    }

    private void requireManager(Caller caller, String user, String action) {
        String account = caller.account();
        if (account.equals(user) || app.info().admins().contains(account) || account.equals(databaseOwner())) {
            return;
        }
        throw NvidbException.forbidden("only " + user + ", an account of queue.admins or the queue's owner (" + databaseOwner()
                + ") may " + action + " " + user + " (you are " + account + ")");
    }

    private String databaseOwner() {
        Path db = app.databasePath();
        try {
            return Files.getOwner(db).getName();
        } catch (IOException | UnsupportedOperationException e) {
            return "?";
        }
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
