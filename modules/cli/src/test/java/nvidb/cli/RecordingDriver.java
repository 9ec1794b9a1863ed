package nvidb.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * A JDBC driver in front of SQLite's that records every statement the program executes, with
 * the values bound to it, while it is installed: the queries a command really makes, read from
 * the command itself rather than copied into a test.
 */
final class RecordingDriver implements Driver, AutoCloseable {
    /** One executed statement: its SQL and the values bound to its parameters, in order. */
    record Executed(String sql, List<Object> args) {
    }

    private final Driver sqlite;
    private final List<Executed> executed = Collections.synchronizedList(new ArrayList<>());

    private RecordingDriver(Driver sqlite) {
        this.sqlite = sqlite;
    }

    /** Puts a recorder in front of SQLite's driver until {@link #close}. */
    static RecordingDriver install() throws SQLException {
        Driver sqlite = DriverManager.getDriver("jdbc:sqlite:");
        RecordingDriver recorder = new RecordingDriver(sqlite);
        DriverManager.deregisterDriver(sqlite);
        DriverManager.registerDriver(recorder);
        System.setProperty("nvidb.store.driverManager", "true"); // the store asks DriverManager, so this driver
        return recorder;
    }

    /** What ran so far, and forgets it. */
    List<Executed> drain() {
        synchronized (executed) {
            List<Executed> out = List.copyOf(executed);
            executed.clear();
            return out;
        }
    }

    /** A connection of SQLite's own, recording nothing. */
    Connection plain(String url) throws SQLException {
        return sqlite.connect(url, new Properties());
    }

    @Override
    public void close() throws SQLException {
        System.clearProperty("nvidb.store.driverManager");
        DriverManager.deregisterDriver(this);
        DriverManager.registerDriver(sqlite);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        Connection c = sqlite.connect(url, info);
        return c == null ? null : proxy(Connection.class, c, (target, method, args) -> {
            Object result = method.invoke(target, args);
            if (result instanceof PreparedStatement ps && method.getName().equals("prepareStatement")) {
                return prepared(ps, (String) args[0]);
            }
            if (result instanceof Statement s && method.getName().equals("createStatement")) {
                return plainStatement(s);
            }
            return result;
        });
    }

    private PreparedStatement prepared(PreparedStatement ps, String sql) {
        TreeMap<Integer, Object> bound = new TreeMap<>();
        return proxy(PreparedStatement.class, ps, (target, method, args) -> {
            String name = method.getName();
            if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index) {
                bound.put(index, name.equals("setNull") ? null : args[1]);
            } else if (name.startsWith("execute") && (args == null || args.length == 0)) {
                executed.add(new Executed(sql, new ArrayList<>(bound.values())));
            }
            return method.invoke(target, args);
        });
    }

    private Statement plainStatement(Statement s) {
        return proxy(Statement.class, s, (target, method, args) -> {
            if (method.getName().startsWith("execute") && args != null && args.length >= 1 && args[0] instanceof String sql) {
                executed.add(new Executed(sql, List.of()));
            }
            return method.invoke(target, args);
        });
    }

    @FunctionalInterface
    private interface Call {
        Object invoke(Object target, Method method, Object[] args) throws Exception;
    }

    private static <T> T proxy(Class<T> type, T target, Call call) {
        InvocationHandler handler = (p, method, args) -> {
            try {
                return call.invoke(target, method, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(RecordingDriver.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        return sqlite.acceptsURL(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return sqlite.getPropertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return sqlite.getMajorVersion();
    }

    @Override
    public int getMinorVersion() {
        return sqlite.getMinorVersion();
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public String toString() {
        return "RecordingDriver" + Arrays.asList(sqlite);
    }
}
