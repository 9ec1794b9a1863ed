package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import nvidb.core.api.Times;

/** Null-aware column access shared by the repositories. */
final class Rows {
    private Rows() {
    }

    /** JDBC work inside the store; its SQLException never leaves this package. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs JDBC work, turning a driver failure into the one exception users see. */
    static <T> T sql(SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw nvidb.core.api.NvidbException.failed("queue database: " + e.getMessage());
        }
    }

    static Integer intOrNull(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    static Long longOrNull(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        String text = rs.getString(column);
        if (text == null) {
            return null;
        }
        Instant plain = plainInstant(text);
        return plain != null ? plain : Times.parse(text);
    }

    /**
     * The form the store writes, {@code 2026-01-02T03:04:05+00:00}, read without
     * {@code java.time}'s parser (a listing reads several per row). Null for any other text or
     * an impossible date, which {@link Times#parse} then reads as it always has; where this
     * returns an instant it is the one {@code OffsetDateTime.parse} gives.
     */
    static Instant plainInstant(String text) {
        if (text.length() != 25 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || !text.endsWith("+00:00")) {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if (year < 1000 || month < 1 || month > 12 || day < 1 || (day > 28 && day > lengthOfMonth(year, month))
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600 + minute * 60 + second);
    }

    /** The decimal number in {@code text[from, from + count)}; -1 unless all of it is ASCII digits. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> java.time.Year.isLeap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Binds parameters in order, mapping Instant to ISO text and null to SQL NULL. */
    static void bind(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            int p = i + 1;
            // An if chain, not a pattern switch: each pattern switch spins a class at run time
            // (SwitchBootstraps), which the AOT cache does not keep.
            if (v == null) {
                ps.setNull(p, Types.NULL);
            } else if (v instanceof Instant t) {
                ps.setString(p, Times.iso(t));
            } else if (v instanceof Boolean b) {
                ps.setInt(p, b ? 1 : 0);
            } else if (v instanceof Integer n) {
                ps.setInt(p, n);
            } else if (v instanceof Long n) {
                ps.setLong(p, n);
            } else if (v instanceof String s) {
                ps.setString(p, s);
            } else {
                throw new IllegalArgumentException("cannot bind " + v.getClass().getName());
            }
        }
    }
}
