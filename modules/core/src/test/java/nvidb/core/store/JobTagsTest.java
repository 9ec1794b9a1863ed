package nvidb.core.store;

import static nvidb.core.store.StoreFixtures.column;
import static nvidb.core.store.StoreFixtures.jdbc;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.Times;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * job_tags (schema 2) answers {@code job ls --tag} through an index: it is filled from the jobs a
 * version 1 database already holds, and kept equal to jobs.tags by triggers on every insert,
 * change of tags and delete, whatever the tags text holds.
 */
class JobTagsTest {
    @TempDir
    Path tmp;

    @Test
    void anUpgradeFillsItFromTheJobsAlreadyThere() throws Exception {
        Path file = tmp.resolve("queue.db");
        try (Connection c = jdbc(file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
            for (String statement : Migrations.splitStatements(StoreFixtures.migration(1))) {
                s.execute(statement);
            }
            s.execute("INSERT INTO schema_version VALUES (1, '2026-01-01T00:00:00+00:00')");
            for (String tags : List.of("'[\"exp\",\"a\"]'", "'[\"a\",\"a\"]'", "'not json'", "'[]'", "'[7]'")) {
                s.execute("INSERT INTO jobs (command, tags, created_at, updated_at) VALUES ('true', " + tags
                        + ", '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')");
            }
        }
        try (Store s = Store.open(file)) {
            assertEquals(List.of(1L), ids(s, "exp"));
            assertEquals(List.of(2L, 1L), ids(s, "a"));
            assertEquals(List.of(), ids(s, "7")); // a number is not the text "7", as json_each compared it
            assertEquals(List.of("7", "a", "a", "exp"), column(s.db.connection(), "SELECT tag FROM job_tags ORDER BY tag"));
            assertEquals(List.of("1", "1", "2", "5"), column(s.db.connection(), "SELECT job_id FROM job_tags ORDER BY job_id"));
        }
    }

    @Test
    void triggersFollowEveryInsertChangeAndDelete() throws Exception {
        try (Store s = Store.open(tmp.resolve("queue.db"))) {
            long first = s.db.write(() -> s.jobs.insert(StoreFixtures.job("one"), Times.now())); // tags ["t"]
            long second = s.db.write(() -> s.jobs.insert(StoreFixtures.job("two"), Times.now()));
            assertEquals(List.of(second, first), ids(s, "t"));
            try (Statement st = s.db.connection().createStatement()) {
                st.execute("UPDATE jobs SET tags = '[\"u\"]' WHERE id = " + first);
            }
            assertEquals(List.of(second), ids(s, "t"));
            assertEquals(List.of(first), ids(s, "u"));
            s.db.write(() -> s.jobs.delete(second));
            assertEquals(List.of(), ids(s, "t"));
            assertEquals(List.of(String.valueOf(first)), column(s.db.connection(), "SELECT job_id FROM job_tags"));
            // Streaming and listing read the same rows.
            List<Long> streamed = new java.util.ArrayList<>();
            s.jobs.each(Set.of(), false, null, "u", null, 0, true, j -> streamed.add(j.id()));
            assertEquals(List.of(first), streamed);
        }
    }

    private static List<Long> ids(Store s, String tag) {
        return s.jobs.search(Set.of(), false, null, tag, null, 0).stream().map(Job::id).toList();
    }
}
