package nvidb.core.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** Small named values: {@code last_tick_at}, {@code last_backup_at}. */
public final class MetaRepository {
    /** When the last backup was taken; a backup file carries its own moment too. */
    public static final String LAST_BACKUP_AT = "last_backup_at";
    private static final String GET = "SELECT value FROM meta WHERE key = ?";
    private static final String PUT =
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value";

    private final Database db;

    public MetaRepository(Database db) {
        this.db = db;
    }

    public Optional<String> get(String key) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(GET)) {
                ps.setString(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
                }
            }
        });
    }

    public void put(String key, String value) {
        Rows.sql(() -> {
            put(db.connection(), key, value);
            return null;
        });
    }

    /** The same write on a connection of its own (a backup copy's). */
    static void put(Connection c, String key, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PUT)) {
            ps.setString(1, key);
            ps.setString(2, value);
            ps.executeUpdate();
        }
    }
}
