package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every statement the hot commands execute on a 10,000-job queue (recorded from the commands
 * themselves by {@link RecordingDriver}) goes through {@code EXPLAIN QUERY PLAN}; none may read
 * the whole jobs or events table. SQLite plans without statistics here (nvidb never runs
 * ANALYZE), so a plan does not depend on how many rows there are: what holds at 10,000 jobs holds
 * at 100,000.
 *
 * <p>The one table scan allowed is the newest-first read with a limit and no filter ({@code job
 * ls}, {@code queue events}): it walks the table from its newest row and stops after the limit.
 */
class QueryPlansTest {
    /** A plan step that reads the table itself, row by row, without an index. */
    private static final Pattern FULL_SCAN = Pattern.compile("^SCAN (jobs|events)\\b(?!.*USING (COVERING )?INDEX)");
    /** Newest first with a limit, filtering nothing (the `1 = 1` is where a listing's filters go). */
    private static final Pattern NEWEST_FIRST = Pattern.compile(
            "FROM (jobs|events)( WHERE 1 = 1)? ORDER BY id DESC LIMIT \\?");

    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:plans");
        // No node: a pass reads what it always reads (pending, running) and starts nothing.
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        cli.json("job", "submit", "--no-tick", "--gpus", "0", "--name", "seed", "--tag", "bench", "--", "true");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement()) {
            // The benchmark's queue (bench/populate-jobs.sql), with an event per job, some held jobs,
            // a node known only to the database and a few alerts.
            for (String file : List.of("../../bench/populate-jobs.sql", "../../bench/populate-job-lists.sql")) {
                for (String sql : Files.readString(Path.of(file)).split(";\\s*\n")) {
                    if (!sql.lines().allMatch(l -> l.isBlank() || l.startsWith("--"))) {
                        s.execute(sql);
                    }
                }
            }
            s.execute("INSERT INTO events (ts, kind, job_id, message) SELECT created_at, 'job_submitted', id, name FROM jobs");
            s.execute("UPDATE jobs SET held_reason = 'dependency 1 failed' WHERE state = 'pending' AND id % 100 = 0");
            s.execute("UPDATE jobs SET node = 'box' WHERE state = 'completed' AND id % 3 = 0");
            s.execute("INSERT INTO nodes (name, state) VALUES ('box', 'up')");
            s.execute("INSERT INTO alerts (ts, kind, job_id, title) SELECT created_at, 'job_failed', id, 'failed'"
                    + " FROM jobs WHERE state = 'failed' AND id < 200");
        }
        assertEquals(10_000, cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs").size());
    }

    @Test
    void noHotCommandReadsAWholeJobsOrEventsTable() throws Exception {
        Map<String, List<RecordingDriver.Executed>> byCommand = new LinkedHashMap<>();
        try (RecordingDriver recorder = RecordingDriver.install()) {
            for (List<String> command : List.of(
                    List.of("job", "submit", "--no-tick", "--gpus", "0", "--idempotency-key", "k1", "--tag", "hot",
                            "--after", "20", "--", "true"),
                    List.of("job", "submit", "--no-tick", "--gpus", "0", "--idempotency-key", "k1", "--", "true"),
                    List.of("job", "submit", "--gpus", "0", "--", "true"),
                    List.of("job", "ls", "--no-tick"),
                    List.of("job", "ls", "--no-tick", "--state", "pending"),
                    List.of("job", "ls", "--no-tick", "--state", "completed", "--state", "failed"),
                    List.of("job", "ls", "--no-tick", "--active"),
                    List.of("job", "ls", "--no-tick", "--held"),
                    List.of("job", "ls", "--no-tick", "--node", "box"),
                    List.of("job", "ls", "--no-tick", "--tag", "hot"),
                    List.of("job", "show", "--no-tick", "20"),
                    List.of("queue", "status", "--no-tick"),
                    List.of("queue", "tick"),
                    List.of("queue", "events"),
                    List.of("queue", "events", "--job", "20"),
                    List.of("queue", "events", "--since", "9990"),
                    List.of("queue", "events", "--job", "20", "--since", "1"),
                    List.of("queue", "alerts"),
                    List.of("job", "cancel", "40"))) {
                List<String> args = new ArrayList<>(command);
                args.add("--json");
                Cli.Result r = cli.run(args.toArray(String[]::new));
                assertTrue(r.exit() == 0 || command.getFirst().equals("queue") && command.get(1).equals("alerts"),
                        String.join(" ", command) + "\n" + r);
                byCommand.put(String.join(" ", command), recorder.drain());
            }
            List<String> scans = new ArrayList<>();
            Set<String> explained = new LinkedHashSet<>();
            try (Connection plain = recorder.plain("jdbc:sqlite:" + cli.database())) {
                byCommand.forEach((command, statements) -> {
                    for (RecordingDriver.Executed e : statements) {
                        if (!e.sql().stripLeading().matches("(?is)(SELECT|INSERT|UPDATE|DELETE|WITH)\\b.*")) {
                            continue; // BEGIN, COMMIT, PRAGMA: no plan
                        }
                        explained.add(e.sql());
                        for (String step : plan(plain, e)) {
                            if (FULL_SCAN.matcher(step).find() && !NEWEST_FIRST.matcher(e.sql()).find()) {
                                scans.add(command + ": " + step + " in\n    " + e.sql() + " " + e.args());
                            }
                        }
                    }
                });
            }
            assertTrue(scans.isEmpty(), "full scans:\n" + String.join("\n", scans));
            // The recording saw the statements this test is about.
            assertTrue(explained.stream().anyMatch(q -> q.contains("idempotency_key = ?")), explained::toString);
            assertTrue(explained.stream().anyMatch(q -> q.contains("job_tags")), explained::toString);
            assertTrue(explained.stream().anyMatch(q -> q.contains("GROUP BY state")), explained::toString);
            assertTrue(explained.stream().anyMatch(q -> q.contains("FROM events WHERE job_id = ?")), explained::toString);
            assertFalse(byCommand.get("queue tick").isEmpty());
        }
    }

    @Test
    void theCheckCatchesAFullScan() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database())) {
            List<String> steps = plan(c, new RecordingDriver.Executed("SELECT * FROM jobs WHERE command = ? ORDER BY id DESC LIMIT ?",
                    List.of("true", 100)));
            assertTrue(steps.stream().anyMatch(s -> FULL_SCAN.matcher(s).find()), steps::toString);
            List<String> indexed = plan(c, new RecordingDriver.Executed("SELECT state, COUNT(*) FROM jobs GROUP BY state", List.of()));
            assertTrue(indexed.stream().noneMatch(s -> FULL_SCAN.matcher(s).find()), indexed::toString);
        }
    }

    /** The plan's steps ({@code detail} of EXPLAIN QUERY PLAN) for a statement with its values. */
    private static List<String> plan(Connection c, RecordingDriver.Executed e) {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + e.sql())) {
            for (int i = 0; i < e.args().size(); i++) {
                ps.setObject(i + 1, e.args().get(i));
            }
            List<String> steps = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    steps.add(rs.getString("detail"));
                }
            }
            return steps;
        } catch (java.sql.SQLException ex) {
            throw new AssertionError("cannot explain " + e.sql() + ": " + ex.getMessage(), ex);
        }
    }
}
