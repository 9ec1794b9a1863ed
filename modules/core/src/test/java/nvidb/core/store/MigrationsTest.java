package nvidb.core.store;

import static nvidb.core.store.StoreFixtures.column;
import static nvidb.core.store.StoreFixtures.jdbc;
import static nvidb.core.store.StoreFixtures.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.IntStream;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upgrading from every earlier schema: for each k below the latest, a database is built at
 * version k by applying only the first k migration resources by hand, given rows that were valid
 * at k, then opened with {@link Database#open}. Today only k = 0 (the empty file) exists; the
 * loop covers each new migration as soon as it lands. A migration that changes what the seeded
 * rows look like adds its own entry to {@link #SEEDS}.
 */
class MigrationsTest {
    @TempDir
    Path tmp;

    /** Rows valid at a schema version: SQL to insert them and a check that they survived. */
    private record Seed(List<String> inserts, SeedCheck check) {
    }

    @FunctionalInterface
    private interface SeedCheck {
        /** @param builtAt the version the database was built at */
        void verify(Store latest, int builtAt) throws Exception;
    }

    /** The seed of the highest version ≤ k is used for a database at version k. */
    private static final NavigableMap<Integer, Seed> SEEDS = new TreeMap<>(Map.of(
            0, new Seed(List.of(), (s, k) -> assertTrue(s.jobs.all().isEmpty())),
            1, new Seed(List.of(
                    "INSERT INTO meta (key, value) VALUES ('last_tick_at', '2026-01-02T03:04:05+00:00')",
                    "INSERT INTO nodes (name, hostname, port, username, state, enabled, sort_order)"
                            + " VALUES ('gpu-box-1', 'gpu-box-1.lab', 22, 'alice', 'up', 1, 0)",
                    "INSERT INTO jobs (name, command, env, state, priority, gpus, vram_mb, depends_on, tags,"
                            + " created_at, updated_at, node, gpu_ids, started_at, finished_at, exit_code, result)"
                            + " VALUES ('prep', 'python prep.py', '{\"FOO\":\"bar\"}', 'completed', 2, 1, 20480, '[]',"
                            + " '[\"exp\"]', '2026-01-02T03:00:00+00:00', '2026-01-02T03:10:00+00:00', 'gpu-box-1',"
                            + " '[0]', '2026-01-02T03:01:00+00:00', '2026-01-02T03:10:00+00:00', 0, '{\"acc\":0.9}')",
                    "INSERT INTO jobs (name, command, state, depends_on, created_at, updated_at)"
                            + " VALUES ('train', 'python train.py', 'pending', '[1]',"
                            + " '2026-01-02T03:05:00+00:00', '2026-01-02T03:05:00+00:00')",
                    "INSERT INTO events (ts, kind, job_id, message) VALUES ('2026-01-02T03:00:00+00:00', 'submitted', 1, 'prep')",
                    "INSERT INTO alerts (ts, kind, severity, job_id, title) VALUES ('2026-01-02T03:10:00+00:00',"
                            + " 'job_failed', 'error', 2, 'job 2 failed')",
                    "INSERT INTO locks (name, owner, acquired_at, expires_at) VALUES ('scheduler', 'host:1',"
                            + " '2026-01-02T03:00:00+00:00', '2026-01-02T03:03:00+00:00')"),
                    (s, k) -> {
                        Job prep = s.jobs.find(1).orElseThrow();
                        assertEquals("prep", prep.name());
                        assertEquals(JobState.COMPLETED, prep.state());
                        assertEquals(Map.of("FOO", "bar"), prep.env());
                        assertEquals(20480, prep.vramMb());
                        assertEquals(List.of(0), prep.gpuIds());
                        assertEquals(List.of("exp"), prep.tags());
                        assertEquals(0, prep.exitCode());
                        Job train = s.jobs.find(2).orElseThrow();
                        assertEquals(List.of(1L), train.dependsOn());
                        assertEquals(JobState.PENDING, train.state());
                        assertEquals("2026-01-02T03:04:05+00:00", s.meta.get("last_tick_at").orElseThrow());
                        assertEquals("host:1", s.leases.get("scheduler").orElseThrow().owner());
                        assertEquals("gpu-box-1", s.nodes.find("gpu-box-1").orElseThrow().name());
                        assertEquals(1, s.alerts.countOpen());
                        if (k < 2) {
                            // An alert from before delivery existed counts as notified: never sent now.
                            assertEquals(nvidb.core.api.Times.parse("2026-01-02T03:10:00+00:00"),
                                    s.alerts.newest(true, 1).getFirst().notifiedAt());
                            assertEquals(false, s.deliveries.anyUnsettled());
                        } else {
                            assertEquals(null, s.alerts.newest(true, 1).getFirst().notifiedAt(), "still to deliver");
                        }
                        // Tags are indexed (job_tags, schema 3) whatever version the job was written at.
                        assertEquals(1L, Long.parseLong(single(s.db.connection(),
                                "SELECT count(*) FROM job_tags WHERE tag = 'exp'")));
                        assertEquals(1, s.events.since(0, null, 100).size());
                        // AUTOINCREMENT continues after the surviving rows.
                        long next = s.db.write(() -> s.jobs.insert(StoreFixtures.job("after-upgrade"),
                                nvidb.core.api.Times.now()));
                        assertEquals(3, next);
                    })));

    static IntStream earlierVersions() throws Exception {
        return IntStream.range(0, Migrations.latest());
    }

    @ParameterizedTest(name = "from version {0}")
    @MethodSource("earlierVersions")
    void upgradesFromAnEarlierVersionKeepingItsRows(int k) throws Exception {
        Path file = tmp.resolve("queue.db");
        Seed seed = SEEDS.floorEntry(k).getValue();
        buildAtVersion(file, k, seed.inserts());

        try (Store s = Store.open(file)) {
            int latest = Migrations.latest();
            assertEquals(latest, Migrations.currentVersion(s.db));
            assertEquals(IntStream.rangeClosed(1, latest).mapToObj(String::valueOf).toList(),
                    column(s.db.connection(), "SELECT version FROM schema_version ORDER BY version"));
            assertEquals("wal", single(s.db.connection(), "PRAGMA journal_mode"));
            seed.check().verify(s, k);
        }
        // And once more: the upgraded file opens without applying anything again.
        try (Store s = Store.open(file)) {
            assertEquals(String.valueOf(Migrations.latest()),
                    single(s.db.connection(), "SELECT COUNT(*) FROM schema_version"));
        }
    }

    /**
     * The newest schema the seeds' inserts fit: they name the JSON columns schema 4 moved into
     * tables, so a database at 4 or later got its rows at 3 and was upgraded from there.
     */
    private static final int SEEDS_WRITTEN_UP_TO = 3;

    /** What an older nvidb would have left: migrations 1..k applied in rollback-journal mode. */
    private static void buildAtVersion(Path file, int k, List<String> inserts) throws Exception {
        if (k == 0) {
            Files.createFile(file); // the empty file a crashed first open can leave
            return;
        }
        try (Connection c = jdbc(file)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
                for (int v = 1; v <= k; v++) {
                    Migrations.execute(c, StoreFixtures.migration(v));
                    try (PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO schema_version (version, applied_at) VALUES (?, '2026-01-01T00:00:00+00:00')")) {
                        ps.setInt(1, v);
                        ps.executeUpdate();
                    }
                    if (v == Math.min(k, SEEDS_WRITTEN_UP_TO)) {
                        for (String insert : inserts) {
                            s.execute(insert);
                        }
                    }
                }
            }
            c.commit();
        }
    }

    @Test
    void everyEarlierVersionIsCovered() throws Exception {
        // The loop above starts at the empty file and stops below the latest version.
        assertEquals(Migrations.latest(), earlierVersions().count());
    }

    /**
     * A migration's text is run by SQLite's own parser: a semicolon or {@code --} inside a string
     * literal or a quoted name, a semicolon in a comment, and a trigger's body are no statement's end.
     */
    @Test
    void semicolonsAndDashesInLiteralsNamesAndCommentsAreText() throws Exception {
        String sql = """
                -- a line comment; with a semicolon and 'a quote
                CREATE TABLE "odd;name" (k TEXT, v TEXT); /* a block comment; over
                   two lines -- with a dash pair; and "a quote */
                CREATE TABLE copies (k TEXT, v TEXT);
                INSERT INTO "odd;name" VALUES ('dash', 'a -- b'), ('semi', 'x; y;'), ('quote', 'it''s; -- fine');
                CREATE TRIGGER odd_copy AFTER INSERT ON "odd;name" BEGIN
                    INSERT INTO copies VALUES (NEW.k, 'copy; of ' || NEW.v);
                    INSERT INTO copies VALUES (NEW.k, '-- twice');
                END;
                INSERT INTO "odd;name" (k, v) VALUES ('last', ';') -- the last statement ends without one
                """;
        try (Database db = Database.open(tmp.resolve("queue.db"))) {
            int next = Migrations.latest() + 1;
            assertEquals(next, Migrations.applyOne(db, next, sql));
            Connection c = db.connection();
            assertEquals(List.of("dash", "a -- b", "semi", "x; y;", "quote", "it's; -- fine", "last", ";"),
                    pairs(c, "SELECT k, v FROM \"odd;name\" ORDER BY rowid"));
            assertEquals(List.of("last", "copy; of ;", "last", "-- twice"), pairs(c, "SELECT k, v FROM copies ORDER BY rowid"));
            assertEquals(List.of("copies", "odd;name", "odd_copy"),
                    column(c, "SELECT name FROM sqlite_master WHERE name IN ('odd;name', 'copies', 'odd_copy') ORDER BY name"));
            assertEquals(String.valueOf(next), single(c, "SELECT MAX(version) FROM schema_version"));
        }
    }

    /** A migration and its version are one transaction: a statement that fails halfway leaves neither. */
    @Test
    void aMigrationThatFailsHalfwayLeavesNothingAndNoVersion() throws Exception {
        try (Database db = Database.open(tmp.resolve("queue.db"))) {
            int latest = Migrations.latest();
            NvidbException e = assertThrows(NvidbException.class, () -> Migrations.applyOne(db, latest + 1, """
                    CREATE TABLE half (x TEXT);
                    INSERT INTO half VALUES ('one; two');
                    INSERT INTO missing VALUES (1);
                    CREATE TABLE never (x TEXT);
                    """));
            assertTrue(e.getMessage().contains("no such table: missing"), e.getMessage());
            Connection c = db.connection();
            assertEquals(List.of(), column(c, "SELECT name FROM sqlite_master WHERE name IN ('half', 'never')"));
            assertEquals(latest, Migrations.currentVersion(db));
            // And the file goes on as before: the next write commits.
            assertEquals(latest + 1, Migrations.applyOne(db, latest + 1, "CREATE TABLE whole (x TEXT)"));
            assertEquals(latest + 1, Migrations.currentVersion(db));
        }
    }

    /** Each row of a two-column query as its two values, in order. */
    private static List<String> pairs(Connection c, String sql) throws SQLException {
        List<String> out = new java.util.ArrayList<>();
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
                out.add(rs.getString(2));
            }
        }
        return out;
    }
}
