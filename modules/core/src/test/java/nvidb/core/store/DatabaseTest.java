package nvidb.core.store;

import static nvidb.core.store.StoreFixtures.column;
import static nvidb.core.store.StoreFixtures.jdbc;
import static nvidb.core.store.StoreFixtures.job;
import static nvidb.core.store.StoreFixtures.sha256;
import static nvidb.core.store.StoreFixtures.sibling;
import static nvidb.core.store.StoreFixtures.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.stream.IntStream;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Opening the queue database: migrations, pragmas, refusal of newer files, permissions, rollback. */
class DatabaseTest {
    @TempDir
    Path tmp;

    private static List<String> allVersions() throws Exception {
        return IntStream.rangeClosed(1, Migrations.latest()).mapToObj(String::valueOf).toList();
    }

    @Test
    void migrationResourcesAreNumberedFromOne() throws Exception {
        int latest = Migrations.latest();
        assertTrue(latest >= 1, "at least migrations/V001__initial_schema.sql is packaged");
        for (int v = 1; v <= latest; v++) {
            assertTrue(StoreFixtures.hasStatements(StoreFixtures.migration(v)), "migration " + v + " has statements");
        }
    }

    @Test
    void aNonexistentFileGetsEveryMigrationWalAndFullSync() throws Exception {
        Path file = tmp.resolve("queue.db");
        assertFalse(Files.exists(file));
        try (Database db = Database.open(file)) {
            Connection c = db.connection();
            assertEquals(Migrations.latest(), Migrations.currentVersion(db));
            assertEquals(allVersions(), column(c, "SELECT version FROM schema_version ORDER BY version"));
            for (String at : column(c, "SELECT applied_at FROM schema_version")) {
                assertNotNull(Times.parse(at), "applied_at is an ISO timestamp: " + at);
            }
            assertEquals("wal", single(c, "PRAGMA journal_mode"));
            assertEquals("2", single(c, "PRAGMA synchronous"), "synchronous=FULL");
            assertEquals("1", single(c, "PRAGMA foreign_keys"));
            assertTrue(Integer.parseInt(single(c, "PRAGMA busy_timeout")) >= 15_000, "a generous busy timeout");
            List<String> tables = column(c, "SELECT name FROM sqlite_master WHERE type = 'table'");
            for (String t : List.of("schema_version", "meta", "nodes", "gpus", "jobs", "lanes", "events", "locks",
                    "alerts", "alert_deliveries", "orphans")) {
                assertTrue(tables.contains(t), "table " + t + " in " + tables);
            }
        }
        // WAL is a property of the file: a plain connection sees it too.
        try (Connection c = jdbc(file)) {
            assertEquals("wal", single(c, "PRAGMA journal_mode"));
        }
    }

    @Test
    void anEmptyExistingFileIsMigratedLikeANewOne() throws Exception {
        Path file = tmp.resolve("queue.db");
        Files.createFile(file);
        try (Database db = Database.open(file)) {
            assertEquals(allVersions(), column(db.connection(), "SELECT version FROM schema_version ORDER BY version"));
        }
    }

    @Test
    void reopeningAppliesNothingTwice() throws Exception {
        Path file = tmp.resolve("queue.db");
        List<String> firstStamps;
        long id;
        try (Store s = Store.open(file)) {
            firstStamps = column(s.db.connection(), "SELECT version || ' ' || applied_at FROM schema_version ORDER BY version");
            id = s.db.write(() -> s.jobs.insert(job("kept"), Times.now()));
        }
        for (int i = 0; i < 3; i++) {
            try (Store s = Store.open(file)) {
                assertEquals(firstStamps, column(s.db.connection(),
                        "SELECT version || ' ' || applied_at FROM schema_version ORDER BY version"));
                assertEquals("kept", s.jobs.find(id).orElseThrow().name());
                assertEquals(1, s.jobs.all().size());
            }
        }
    }

    /**
     * A file stamped with a version this build does not know is refused and not altered, whether
     * the newer nvidb left it in WAL mode or in rollback-journal mode (as a backup copy would be).
     */
    @ParameterizedTest
    @ValueSource(strings = {"wal", "delete"})
    void aDatabaseFromANewerNvidbIsRefusedAndLeftByteForByteUnchanged(String journalMode) throws Exception {
        Path file = tmp.resolve("queue.db");
        try (Store s = Store.open(file)) {
            s.db.write(() -> s.jobs.insert(job("from-the-future"), Times.now()));
        }
        try (Connection c = jdbc(file); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=" + journalMode);
            st.execute("INSERT INTO schema_version (version, applied_at) VALUES (999, '2030-01-01T00:00:00+00:00')");
        }
        // Every connection is closed, so the WAL has been checkpointed into queue.db.
        assertFalse(Files.exists(sibling(file, "-wal")) && Files.size(sibling(file, "-wal")) > 0);
        String before = sha256(file);

        for (int attempt = 0; attempt < 2; attempt++) {
            NvidbException e = assertThrows(NvidbException.class, () -> Database.open(file));
            assertTrue(e.getMessage().contains("written by a newer nvidb"), e.getMessage());
            assertTrue(e.getMessage().contains("999"), e.getMessage());
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertEquals(ErrorCode.FAILED, e.code());
        }
        assertThrows(NvidbException.class, () -> Store.open(file));

        assertEquals(before, sha256(file), "queue.db was altered");
        Path wal = sibling(file, "-wal");
        assertFalse(Files.exists(wal) && Files.size(wal) > 0, "a refused open left a non-empty WAL behind");
        try (Connection c = jdbc(file)) {
            assertEquals(journalMode, single(c, "PRAGMA journal_mode"));
            assertEquals("999", single(c, "SELECT MAX(version) FROM schema_version"));
            assertEquals("from-the-future", single(c, "SELECT name FROM jobs"));
        }
    }

    @Test
    void theFileIsOwnerOnlyAndCreatedFoldersToo() throws Exception {
        Assumptions.assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path home = tmp.resolve("home");
        Path dir = home.resolve("nested");
        Path file = dir.resolve("queue.db");
        try (Store s = Store.open(file)) {
            s.db.write(() -> s.jobs.insert(job("x"), Times.now()));
            assertEquals("rw-------", perms(file));
            Path wal = sibling(file, "-wal");
            if (Files.exists(wal)) {
                assertEquals("rw-------", perms(wal), "the WAL holds the same data as the file");
            }
        }
        assertEquals("rwx------", perms(dir));
        assertEquals("rwx------", perms(home));
    }

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void anExceptionInsideWriteLeavesNoTrace() throws Exception {
        Path file = tmp.resolve("queue.db");
        try (Store s = Store.open(file); Store other = Store.open(file)) {
            IllegalStateException boom = assertThrows(IllegalStateException.class, () -> s.db.write(() -> {
                s.jobs.insert(job("doomed"), Times.now());
                s.meta.put("half", "written");
                s.events.append(Times.now(), nvidb.core.api.EventKind.JOB_SUBMITTED, 1L, null, "doomed", null);
                throw new IllegalStateException("boom");
            }));
            assertEquals("boom", boom.getMessage());
            assertTrue(s.jobs.all().isEmpty());
            assertTrue(s.meta.get("half").isEmpty());
            assertEquals("0", single(s.db.connection(), "SELECT COUNT(*) FROM events"));
            assertTrue(other.jobs.all().isEmpty(), "another connection sees nothing either");

            // No transaction is left open: the next write commits and is visible elsewhere, and
            // the rolled-back insert did not even use up an id.
            long id = s.db.write(() -> s.jobs.insert(job("kept"), Times.now()));
            assertEquals(1, id);
            assertEquals("kept", other.jobs.find(id).orElseThrow().name());
        }
    }

    @Test
    void aWriteTakesTheWriteLockUpFrontAndReadersCarryOn() throws Exception {
        Path file = tmp.resolve("queue.db");
        try (Store s = Store.open(file); Connection other = jdbc(file); Statement st = other.createStatement()) {
            st.execute("PRAGMA busy_timeout=0");
            long id = s.db.write(() -> {
                // Nothing written yet: only BEGIN IMMEDIATE (not a deferred BEGIN) holds the lock now.
                java.sql.SQLException busy = assertThrows(java.sql.SQLException.class, () -> st.execute("BEGIN IMMEDIATE"));
                assertTrue(Database.isBusy(busy), busy.getMessage());
                long inserted = s.jobs.insert(job("locked"), Times.now());
                try {
                    assertEquals("0", single(other, "SELECT COUNT(*) FROM jobs"), "WAL readers see the last commit");
                } catch (java.sql.SQLException e) {
                    throw new AssertionError("a reader was blocked by the writer", e);
                }
                return inserted;
            });
            assertEquals("1", single(other, "SELECT COUNT(*) FROM jobs WHERE id = " + id));
        }
    }

    @Test
    void aNestedWriteJoinsTheOuterTransactionAndRollsBackWithIt() throws Exception {
        try (Store s = Store.open(tmp.resolve("queue.db"))) {
            assertThrows(IllegalStateException.class, () -> s.db.write(() -> {
                s.db.write(() -> s.jobs.insert(job("inner"), Times.now()));
                throw new IllegalStateException("outer fails after the inner write returned");
            }));
            assertTrue(s.jobs.all().isEmpty());
        }
    }

    @Test
    void aFailingStatementRollsBackTheWholeWrite() throws Exception {
        try (Store s = Store.open(tmp.resolve("queue.db"))) {
            JobRepository.NewJob keyed = new JobRepository.NewJob("a", "true", null, java.util.Map.of(), 0, 0, 0,
                    null, List.of(), List.of(), null, null, List.of(), null, null, 0, null, "key-1");
            s.db.write(() -> s.jobs.insert(keyed, Times.now()));
            NvidbException e = assertThrows(NvidbException.class, () -> s.db.write(() -> {
                s.meta.put("before-the-failure", "x");
                return s.jobs.insert(keyed, Times.now()); // same idempotency key: UNIQUE fails
            }));
            assertEquals(ErrorCode.FAILED, e.code());
            assertTrue(s.meta.get("before-the-failure").isEmpty());
            assertEquals(1, s.jobs.all().size());
        }
    }
}
