package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.SinkDelivery;

/**
 * The {@code alert_deliveries} table and the alerts' {@code notified_at}: per alert and per sink,
 * whether it was delivered, skipped, or failed and when it is tried again. Each record is its own
 * short write (the caller's transaction), made after the sink answered.
 */
public final class DeliveryRepository {
    private static final String ANY_UNSETTLED = "SELECT 1 FROM alerts WHERE notified_at IS NULL LIMIT 1";
    private static final String UNSETTLED = "SELECT id, severity FROM alerts WHERE notified_at IS NULL ORDER BY id";
    private static final String ROWS_OF_UNSETTLED = """
            SELECT d.* FROM alert_deliveries d JOIN alerts a ON a.id = d.alert_id
            WHERE a.notified_at IS NULL ORDER BY d.alert_id, d.sink
            """;
    private static final String ROWS_BETWEEN =
            "SELECT * FROM alert_deliveries WHERE alert_id BETWEEN ? AND ? ORDER BY alert_id, sink";
    // A second success record (only after a crash between a delivery and its record) keeps the first time.
    private static final String DELIVERED = """
            INSERT INTO alert_deliveries (alert_id, sink, delivered_at, attempts) VALUES (?, ?, ?, 1)
            ON CONFLICT(alert_id, sink) DO UPDATE SET delivered_at = COALESCE(delivered_at, excluded.delivered_at),
                attempts = attempts + 1, next_try_at = NULL, last_error = NULL
            """;
    private static final String FAILED = """
            INSERT INTO alert_deliveries (alert_id, sink, attempts, next_try_at, last_error) VALUES (?, ?, 1, ?, ?)
            ON CONFLICT(alert_id, sink) DO UPDATE SET attempts = attempts + 1, next_try_at = excluded.next_try_at,
                last_error = excluded.last_error
            """;
    private static final String SKIPPED = """
            INSERT INTO alert_deliveries (alert_id, sink, skipped_at, attempts, last_error) VALUES (?, ?, ?, 1, ?)
            ON CONFLICT(alert_id, sink) DO UPDATE SET skipped_at = excluded.skipped_at, attempts = attempts + 1,
                next_try_at = NULL, last_error = excluded.last_error
            """;
    private static final String NOTIFIED = "UPDATE alerts SET notified_at = ? WHERE id = ? AND notified_at IS NULL";

    /**
     * An alert whose delivery is not settled yet, with what each sink did with it so far.
     *
     * @param bySink the rows of this alert, by sink name
     */
    public record Unsettled(long id, String severity, Map<String, SinkDelivery> bySink) {
    }

    private final Database db;

    public DeliveryRepository(Database db) {
        this.db = db;
    }

    /** Whether any alert's delivery is unsettled: the one read a pass makes when there is nothing to send. */
    public boolean anyUnsettled() {
        return Rows.sql(() -> {
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(ANY_UNSETTLED)) {
                return rs.next();
            }
        });
    }

    /** Every alert without {@code notified_at}, oldest first, with its delivery rows. */
    public List<Unsettled> unsettled() {
        return Rows.sql(() -> {
            Map<Long, Map<String, SinkDelivery>> rows = new LinkedHashMap<>();
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(ROWS_OF_UNSETTLED)) {
                while (rs.next()) {
                    rows.computeIfAbsent(rs.getLong("alert_id"), id -> new LinkedHashMap<>()).put(rs.getString("sink"), row(rs));
                }
            }
            List<Unsettled> out = new ArrayList<>();
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(UNSETTLED)) {
                while (rs.next()) {
                    long id = rs.getLong("id");
                    out.add(new Unsettled(id, rs.getString("severity"), rows.getOrDefault(id, Map.of())));
                }
            }
            return out;
        });
    }

    /** The delivery rows of the alerts with ids from {@code first} to {@code last}, by alert id. */
    public Map<Long, List<SinkDelivery>> between(long first, long last) {
        return Rows.sql(() -> {
            Map<Long, List<SinkDelivery>> out = new LinkedHashMap<>();
            try (PreparedStatement ps = db.connection().prepareStatement(ROWS_BETWEEN)) {
                Rows.bind(ps, first, last);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.computeIfAbsent(rs.getLong("alert_id"), id -> new ArrayList<>()).add(row(rs));
                    }
                }
            }
            return out;
        });
    }

    public void delivered(long alertId, String sink, Instant at) {
        update(DELIVERED, alertId, sink, at);
    }

    public void failed(long alertId, String sink, Instant nextTryAt, String error) {
        update(FAILED, alertId, sink, nextTryAt, error);
    }

    public void skipped(long alertId, String sink, Instant at, String reason) {
        update(SKIPPED, alertId, sink, at, reason);
    }

    /** Sets {@code notified_at} unless it is set already. */
    public void notified(long alertId, Instant at) {
        update(NOTIFIED, at, alertId);
    }

    private void update(String sql, Object... args) {
        Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
                Rows.bind(ps, args);
                return ps.executeUpdate();
            }
        });
    }

    private static SinkDelivery row(ResultSet rs) throws SQLException {
        return new SinkDelivery(rs.getString("sink"), Rows.instant(rs, "delivered_at"), Rows.instant(rs, "skipped_at"),
                rs.getInt("attempts"), Rows.instant(rs, "next_try_at"), rs.getString("last_error"));
    }
}
