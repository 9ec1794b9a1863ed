package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Caller;
import nvidb.core.api.Event;
import nvidb.core.api.EventKind;
import nvidb.core.api.Json;

/** The append-only {@code events} table. */
public final class EventLog {
    private static final String INSERT =
            "INSERT INTO events (ts, kind, job_id, node, message, data, by_account, by_submitter, by_via)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    // One statement per shape, not "(? IS NULL OR job_id = ?)": SQLite plans a statement before
    // it sees the values, and with that OR it would walk the whole log for one job's events
    // instead of using idx_events_job.
    private static final String SINCE = "SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?";
    private static final String SINCE_FOR_JOB =
            "SELECT * FROM events WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?";
    private static final String NEWEST = "SELECT * FROM events ORDER BY id DESC LIMIT ?";
    private static final String NEWEST_FOR_JOB = "SELECT * FROM events WHERE job_id = ? ORDER BY id DESC LIMIT ?";

    private final Database db;

    public EventLog(Database db) {
        this.db = db;
    }

    public long append(Instant ts, EventKind kind, Long jobId, String node, String message, Map<String, ?> data) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT, java.sql.Statement.RETURN_GENERATED_KEYS)) {
                // The operation this event belongs to was asked for by this caller (none: a pass on its own).
                Caller by = Caller.acting();
                Rows.bind(ps, ts, kind.label(), jobId, node, message, data == null ? null : Json.write(data),
                        by == null ? null : by.account(), by == null ? null : by.submitter(),
                        by == null ? null : by.via().label());
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    /** Events after {@code sinceId}, oldest first, at most {@code limit}. */
    public List<Event> since(long sinceId, Long jobId, int limit) {
        return Rows.sql(() -> {
            return jobId == null ? query(SINCE, sinceId, limit) : query(SINCE_FOR_JOB, jobId, sinceId, limit);
        });
    }

    /** The newest {@code limit} events, returned oldest first. */
    public List<Event> newest(Long jobId, int limit) {
        return Rows.sql(() -> {
            List<Event> events = jobId == null ? query(NEWEST, limit) : query(NEWEST_FOR_JOB, jobId, limit);
            Collections.reverse(events);
            return events;
        });
    }

    private List<Event> query(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            Rows.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<Event> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new Event(rs.getLong("id"), Rows.instant(rs, "ts"), rs.getString("kind"),
                            Rows.longOrNull(rs, "job_id"), rs.getString("node"), rs.getString("message"),
                            rs.getString("data"), caller(rs)));
                }
                return out;
            }
        }
    }

    private static Event.By caller(ResultSet rs) throws SQLException {
        String via = rs.getString("by_via");
        return via == null ? null : new Event.By(rs.getString("by_account"), rs.getString("by_submitter"), via);
    }
}
