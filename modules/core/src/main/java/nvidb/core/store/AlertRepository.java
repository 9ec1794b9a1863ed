package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.Alert;
import nvidb.core.api.AlertKind;
import nvidb.core.api.SinkDelivery;

/** The {@code alerts} table; each alert read comes with its per-sink deliveries. */
public final class AlertRepository {
    private static final String INSERT =
            "INSERT INTO alerts (ts, kind, severity, job_id, node, title, detail) VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String NEWEST_OPEN =
            "SELECT * FROM alerts WHERE acknowledged_at IS NULL ORDER BY id DESC LIMIT ?";
    private static final String NEWEST_ALL = "SELECT * FROM alerts ORDER BY id DESC LIMIT ?";
    private static final String COUNT_OPEN = "SELECT COUNT(*) FROM alerts WHERE acknowledged_at IS NULL";
    private static final String ACK = "UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL";
    private static final String ACK_ALL = "UPDATE alerts SET acknowledged_at = ? WHERE acknowledged_at IS NULL";
    private static final String BY_ID = "SELECT * FROM alerts WHERE id = ?";

    private final Database db;
    private final DeliveryRepository deliveries;

    public AlertRepository(Database db) {
        this.db = db;
        this.deliveries = new DeliveryRepository(db);
    }

    public long raise(Instant ts, AlertKind kind, Long jobId, String node, String title, String detail) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT, Statement.RETURN_GENERATED_KEYS)) {
                Rows.bind(ps, ts, kind.label(), kind.severity().label(), jobId, node, title, detail);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    /** The newest {@code limit} alerts (open only unless {@code all}), oldest first. */
    public List<Alert> newest(boolean all, int limit) {
        return Rows.sql(() -> {
            List<Alert> alerts = query(all ? NEWEST_ALL : NEWEST_OPEN, limit);
            Collections.reverse(alerts);
            return alerts;
        });
    }

    public Optional<Alert> find(long id) {
        return Rows.sql(() -> {
            List<Alert> found = query(BY_ID, id);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
        });
    }

    public long countOpen() {
        return Rows.sql(() -> {
            try (Statement s = db.connection().createStatement(); ResultSet rs = s.executeQuery(COUNT_OPEN)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    public int acknowledge(Collection<Long> ids, Instant now) {
        return Rows.sql(() -> {
            int n = 0;
            try (PreparedStatement ps = db.connection().prepareStatement(ACK)) {
                for (long id : ids) {
                    Rows.bind(ps, now, id);
                    n += ps.executeUpdate();
                }
            }
            return n;
        });
    }

    public int acknowledgeAll(Instant now) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(ACK_ALL)) {
                Rows.bind(ps, now);
                return ps.executeUpdate();
            }
        });
    }

    private List<Alert> query(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<Alert> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new Alert(rs.getLong("id"), Rows.instant(rs, "ts"), rs.getString("kind"),
                            rs.getString("severity"), Rows.longOrNull(rs, "job_id"), rs.getString("node"),
                            rs.getString("title"), rs.getString("detail"), Rows.instant(rs, "acknowledged_at"),
                            Rows.instant(rs, "notified_at")));
                }
                return withDeliveries(out);
            }
        }
    }

    /** The alerts with their delivery rows, read in one query over the alerts' id range. */
    private List<Alert> withDeliveries(List<Alert> alerts) {
        if (alerts.isEmpty()) {
            return alerts;
        }
        long first = alerts.stream().mapToLong(Alert::id).min().orElseThrow();
        long last = alerts.stream().mapToLong(Alert::id).max().orElseThrow();
        Map<Long, List<SinkDelivery>> rows = deliveries.between(first, last);
        List<Alert> out = new ArrayList<>(alerts.size());
        for (Alert a : alerts) {
            out.add(new Alert(a.id(), a.ts(), a.kind(), a.severity(), a.jobId(), a.node(), a.title(), a.detail(),
                    a.acknowledgedAt(), a.notifiedAt(), rows.getOrDefault(a.id(), List.of())));
        }
        return out;
    }
}
