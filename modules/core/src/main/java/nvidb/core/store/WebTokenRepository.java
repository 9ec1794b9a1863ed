package nvidb.core.store;

import java.security.MessageDigest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.Times;
import nvidb.core.api.WebTokens;

/** The {@code web_tokens} table (schema 14): per-user web tokens, by their SHA-256 alone. */
public final class WebTokenRepository implements WebTokens {
    private static final String COLUMNS = "id, user, created_at, created_by, last_used_at";
    private static final String INSERT =
            "INSERT INTO web_tokens (user, token_sha256, created_at, created_by) VALUES (?, ?, ?, ?)";
    private static final String ALL = "SELECT " + COLUMNS + " FROM web_tokens ORDER BY id";
    private static final String BY_ID = "SELECT " + COLUMNS + " FROM web_tokens WHERE id = ?";
    private static final String BY_USER = "SELECT " + COLUMNS + " FROM web_tokens WHERE user = ? ORDER BY id";
    private static final String HASHES = "SELECT " + COLUMNS + ", token_sha256 FROM web_tokens";
    private static final String DELETE_ID = "DELETE FROM web_tokens WHERE id = ?";
    private static final String DELETE_USER = "DELETE FROM web_tokens WHERE user = ?";
    private static final String USED = "UPDATE web_tokens SET last_used_at = ? WHERE id = ?";
    /** How stale {@code last_used_at} may get: a request does not write the database each time. */
    private static final Duration USE_NOTED_EVERY = Duration.ofMinutes(1);

    private final Database db;

    public WebTokenRepository(Database db) {
        this.db = db;
    }

    @Override
    public Stored add(String user, byte[] sha256, String createdBy) {
        return db.write(() -> Rows.sql(() -> {
            long id;
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT, Statement.RETURN_GENERATED_KEYS)) {
                Rows.bind(ps, user, sha256, Times.now(), createdBy);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    id = keys.getLong(1);
                }
            }
            return select(BY_ID, id).getFirst();
        }));
    }

    @Override
    public List<Stored> list() {
        return db.read(() -> Rows.sql(() -> select(ALL)));
    }

    @Override
    public List<Stored> revoke(long id) {
        return db.write(() -> Rows.sql(() -> {
            List<Stored> gone = select(BY_ID, id);
            update(DELETE_ID, id);
            return gone;
        }));
    }

    @Override
    public List<Stored> revokeAll(String user) {
        return db.write(() -> Rows.sql(() -> {
            List<Stored> gone = select(BY_USER, user);
            update(DELETE_USER, user);
            return gone;
        }));
    }

    @Override
    public Optional<Stored> match(byte[] sha256) {
        Stored found = db.read(() -> Rows.sql(() -> {
            Stored match = null;
            try (PreparedStatement ps = db.connection().prepareStatement(HASHES); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // Every row compared, each in constant time: how long this takes says nothing of the token.
                    if (MessageDigest.isEqual(sha256, rs.getBytes("token_sha256")) && match == null) {
                        match = row(rs);
                    }
                }
            }
            return match;
        }));
        if (found == null) {
            return Optional.empty();
        }
        Instant now = Times.now();
        if (found.lastUsedAt() == null || found.lastUsedAt().plus(USE_NOTED_EVERY).isBefore(now)) {
            if (!db.readOnly()) {
                db.write(() -> Rows.sql(() -> {
                    update(USED, now, found.id());
                    return null;
                }));
            }
        }
        return Optional.of(found);
    }

    private List<Stored> select(String sql, Object... values) throws SQLException {
        List<Stored> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, values);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
        }
        return out;
    }

    /** Runs one statement that changes rows: a delete, or the use noted. */
    private void update(String sql, Object... values) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, values);
            ps.executeUpdate();
        }
    }

    private static Stored row(ResultSet rs) throws SQLException {
        String used = rs.getString("last_used_at");
        return new Stored(rs.getLong("id"), rs.getString("user"), Rows.instant(rs, "created_at"), rs.getString("created_by"),
                used == null ? null : Times.parse(used));
    }
}
