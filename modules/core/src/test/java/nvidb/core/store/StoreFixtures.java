package nvidb.core.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Shared helpers for the store tests: plain JDBC, migration resources, checksums, new jobs. */
final class StoreFixtures {
    private StoreFixtures() {
    }

    /** A plain JDBC connection that bypasses {@link Database} (no WAL switch, no migrations). */
    static Connection jdbc(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    /** Migration {@code version}'s SQL, found through the index as a packaged build finds it. */
    static String migration(int version) throws IOException {
        return Migrations.sql(version);
    }

    /** Whether a migration's text has a line that is not blank and not a {@code --} comment. */
    static boolean hasStatements(String sql) {
        return sql.lines().map(String::strip).anyMatch(l -> !l.isEmpty() && !l.startsWith("--"));
    }

    static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    static String single(Connection c, String sql) throws SQLException {
        List<String> values = column(c, sql);
        return values.isEmpty() ? null : values.getFirst();
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path sibling(Path db, String suffix) {
        return db.resolveSibling(db.getFileName() + suffix);
    }

    static JobRepository.NewJob job(String name) {
        return new JobRepository.NewJob(name, "echo " + name, "/tmp", Map.of("K", "v"), 0, 1, 512, null,
                List.of(), List.of(), null, "tester@host:1", List.of("t"), null, null, 0, null, null);
    }
}
