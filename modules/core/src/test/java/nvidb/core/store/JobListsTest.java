package nvidb.core.store;

import static nvidb.core.store.StoreFixtures.column;
import static nvidb.core.store.StoreFixtures.jdbc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.Times;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's env, dependencies, tags and GPUs, a lane's GPUs and a GPU's processes live in child
 * tables (schema 4): converted once from the JSON text a version 3 database holds, whatever that
 * text is, and kept by the repositories on every insert, change and delete.
 */
class JobListsTest {
    private static final String T = "'2026-01-01T00:00:00+00:00'";

    @TempDir
    Path tmp;

    @Test
    void anUpgradeFromVersion3ConvertsTheJsonColumnsIntoRows() throws Exception {
        Path file = tmp.resolve("queue.db");
        try (Connection c = jdbc(file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
            for (int v = 1; v <= 3; v++) {
                Migrations.execute(c, StoreFixtures.migration(v));
                s.execute("INSERT INTO schema_version VALUES (" + v + ", " + T + ")");
            }
            job(s, "'{\"LR\":\"1e-4\",\"NOTE\":\"tab\\t\\\"q\\\" \u00fc\",\"N\":3}'", "'[5,\"x\",7]'", "'[9]'",
                    "'[\"exp\",\"a\"]'", "'[1,0]'");
            job(s, "'{\"K\":\"first\",\"J\":\"j\",\"K\":\"last\"}'", "'[]'", "'[]'", "'[\"a\",\"a\"]'", "'[]'");
            job(s, "'not json'", "'not json'", "'{}'", "'not json'", "'3'");
            job(s, "'{}'", "'[]'", "'[]'", "'[7]'", "'[]'");
            s.execute("INSERT INTO lanes (name, node, gpu_ids, created_at, updated_at) VALUES ('box:1,0', 'box', '[1,0]', "
                    + T + ", " + T + ")");
            s.execute("INSERT INTO gpus (node, gpu_index, processes_json, updated_at) VALUES ('box', 0, '[{\"pid\":42,"
                    + "\"memMb\":1024,\"name\":\"python\",\"user\":\"alice\",\"jobId\":1,\"jobName\":\"train\",\"managed\":true},"
                    + "{\"pid\":7,\"memMb\":null,\"name\":\"x\",\"user\":null,\"jobId\":null,\"jobName\":null,\"managed\":false}]', "
                    + T + ")");
        }
        try (Store s = Store.open(file)) {
            Job first = s.jobs.find(1).orElseThrow();
            assertEquals(List.of("LR", "NOTE", "N"), new ArrayList<>(first.env().keySet()));
            assertEquals(Map.of("LR", "1e-4", "NOTE", "tab\t\"q\" \u00fc", "N", "3"), first.env());
            assertEquals(List.of(5L, 7L), first.dependsOn()); // text in a list of ids was skipped, as before
            assertEquals(List.of(9L), first.dependsAny());
            assertEquals(List.of("exp", "a"), first.tags());
            assertEquals(List.of(1, 0), first.gpuIds());
            Job second = s.jobs.find(2).orElseThrow();
            // A repeated key: the first one's place, the last one's value, as Jackson read it.
            assertEquals(List.of("K", "J"), new ArrayList<>(second.env().keySet()));
            assertEquals("last", second.env().get("K"));
            assertEquals(List.of("a", "a"), second.tags());
            Job unreadable = s.jobs.find(3).orElseThrow();
            assertEquals(Map.of(), unreadable.env());
            assertEquals(List.of(), unreadable.dependsOn());
            assertEquals(List.of(), unreadable.tags());
            assertEquals(List.of(), unreadable.gpuIds());
            assertEquals(List.of("7"), s.jobs.find(4).orElseThrow().tags());
            assertEquals(List.of(2L, 1L), ids(s, "a"));
            assertEquals(List.of(), ids(s, "7")); // a number is not the text "7", as json_each compared it
            assertEquals(List.of(1L), s.jobs.waitingOn(5).stream().map(Job::id).toList());
            assertEquals(List.of(1, 0), s.lanes.find("box:1,0").orElseThrow().gpuIds());
            List<GpuState.GpuProcessView> procs = s.gpus.all(0).getFirst().processes();
            assertEquals(List.of(new GpuState.GpuProcessView(42, 1024, "python", "alice", 1L, "train", true),
                    new GpuState.GpuProcessView(7, null, "x", null, null, null, false)), procs);
            for (String gone : List.of("jobs.env", "jobs.depends_on", "jobs.depends_any", "jobs.tags", "jobs.gpu_ids",
                    "lanes.gpu_ids", "gpus.processes_json")) {
                String[] part = gone.split("\\.");
                assertFalse(column(s.db.connection(), "SELECT name FROM pragma_table_info('" + part[0] + "')")
                        .contains(part[1]), gone + " is dropped");
            }
        }
    }

    private static void job(Statement s, String env, String dependsOn, String dependsAny, String tags, String gpuIds)
            throws Exception {
        s.execute("INSERT INTO jobs (command, env, depends_on, depends_any, tags, gpu_ids, created_at, updated_at)"
                + " VALUES ('true', " + env + ", " + dependsOn + ", " + dependsAny + ", " + tags + ", " + gpuIds + ", "
                + T + ", " + T + ")");
    }

    @Test
    void theRepositoryKeepsTheListsOnInsertChangeAndDelete() throws Exception {
        try (Store s = Store.open(tmp.resolve("queue.db"))) {
            long first = s.db.write(() -> s.jobs.insert(StoreFixtures.job("one"), Times.now())); // env K=v, tags ["t"]
            long second = s.db.write(() -> s.jobs.insert(new JobRepository.NewJob("two", "true", null,
                    Map.of(), 0, 1, 0, null, List.of(first), List.of(first), null, null, List.of("t", "u"), null, null, 0,
                    null, null), Times.now()));
            assertEquals(List.of(second, first), ids(s, "t"));
            assertEquals(List.of(second), s.jobs.waitingOn(first).stream().map(Job::id).toList());
            s.db.write(() -> {
                s.jobs.update(second, new JobChanges().dependsOn(List.of()).gpuIds(List.of(3, 1)),
                        Times.now());
                return null;
            });
            Job two = s.jobs.find(second).orElseThrow();
            assertEquals(List.of(), two.dependsOn());
            assertEquals(List.of(first), two.dependsAny());
            assertEquals(List.of(3, 1), two.gpuIds());
            assertEquals(List.of(), s.jobs.waitingOn(first));
            // Both orders of a listing hand each job its own lists.
            for (boolean oldestFirst : List.of(true, false)) {
                List<Job> streamed = new ArrayList<>();
                s.jobs.each(Set.of(), false, null, null, null, 0, oldestFirst, streamed::add);
                assertEquals(oldestFirst ? List.of(first, second) : List.of(second, first),
                        streamed.stream().map(Job::id).toList());
                for (Job j : streamed) {
                    assertEquals(s.jobs.find(j.id()).orElseThrow(), j);
                }
            }
            assertEquals(Map.of("K", "v"), s.jobs.find(first).orElseThrow().env());
            s.db.write(() -> s.jobs.delete(second));
            for (String table : List.of("job_env", "job_dependencies", "job_tags", "job_gpus")) {
                assertEquals(List.of(), column(s.db.connection(), "SELECT job_id FROM " + table + " WHERE job_id = " + second),
                        table);
            }
            assertEquals(List.of(first), ids(s, "t"));
        }
    }

    private static List<Long> ids(Store s, String tag) {
        return s.jobs.search(Set.of(), false, null, tag, null, 0).stream().map(Job::id).toList();
    }
}
