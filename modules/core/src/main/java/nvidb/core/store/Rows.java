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
            throw StoreFailures.of(null, StoreFailures.RESTORE, e); // Database names its file on the way out
        }
    }

    static Integer intOrNull(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    static Double doubleOrNull(ResultSet rs, String column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? null : v;
    }

    static Long longOrNull(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        return Times.parse(rs.getString(column));
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
            } else if (v instanceof Double d) {
                ps.setDouble(p, d);
            } else if (v instanceof byte[] bytes) {
                ps.setBytes(p, bytes);
            } else {
                throw new IllegalArgumentException("cannot bind " + v.getClass().getName());
            }
        }
    }
}
