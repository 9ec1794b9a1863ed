package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.cli.output.Output;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.Queue;
import nvidb.core.api.QueueAccess;
import nvidb.core.api.Times;
import nvidb.core.view.AlertView;
import nvidb.core.view.JobView;
import nvidb.core.view.LaneView;
import nvidb.core.view.NodeView;
import nvidb.core.view.QueueDocuments;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job ls --json} and {@code queue status --json} print their documents while they read
 * the jobs (JobStream, through Output.streamed): the bytes must be those of the whole document, the same view
 * records in one record printed by Output at once. The oracle builds that record over the public
 * API, run against a populated queue whose jobs cover every state, held jobs, odd text, stored results
 * that are and are not JSON, open and acknowledged alerts and a held lease.
 */
class StreamedJsonTest {
    private static final Pattern GENERATED_AT = Pattern.compile("\"generated_at\": \"([^\"]+)\"");

    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:stream");
        // One node that is never contacted (--no-tick), so that --node has something to resolve.
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\nservers:\n  - nickname: box\n    transport: local\n");
    }

    @Test
    void anEmptyQueuePrintsWhatTheTreePrinted() {
        cli.json("job", "ls", "--no-tick"); // creates the database
        assertSameBytes(List.of("job", "ls"), 100);
        assertStatusSameBytes();
    }

    @Test
    void aPopulatedQueuePrintsWhatTheTreePrinted() throws Exception {
        populate(240);
        assertSameBytes(List.of("job", "ls"), 100);
        assertSameBytes(List.of("job", "ls", "-n", "0"), 0);
        assertSameBytes(List.of("job", "ls", "-n", "7", "--tag", "a"), 7);
        assertSameBytes(List.of("job", "ls", "-n", "0", "--state", "pending", "--state", "failed"), 0);
        assertSameBytes(List.of("job", "ls", "-n", "0", "--held"), 0);
        assertSameBytes(List.of("job", "ls", "-n", "0", "--active", "--node", "box"), 0);
        assertStatusSameBytes();
    }

    /**
     * The process's stdout is UTF-8 and the generator writes its bytes; a stream in another
     * charset goes through a writer in that charset, and both print what a whole document prints.
     */
    @Test
    void aStreamPrintsTheBytesOfAWholeDocumentInEveryCharset() {
        Map<String, Object> doc = new java.util.LinkedHashMap<>();
        doc.put("name", "ünï \"q\" \\ ☃ \n");
        doc.put("ids", List.of(1, 2));
        for (var charset : List.of(StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1, StandardCharsets.US_ASCII)) {
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            new Output(new PrintStream(whole, true, charset), System.err).document(doc);
            ByteArrayOutputStream streamed = new ByteArrayOutputStream();
            new Output(new PrintStream(streamed, true, charset), System.err).streamed(doc);
            assertEquals(whole.toString(charset), streamed.toString(charset), charset.name());
            assertTrue(whole.size() > 20, whole.toString(charset));
        }
    }

    @Test
    void anUnknownNodeIsRefusedWithOnlyTheErrorDocument() throws Exception {
        populate(10);
        Cli.Result r = cli.run("job", "ls", "--json", "--no-tick", "--node", "nowhere");
        assertEquals(3, r.exit(), r.toString());
        assertEquals("not_found", r.json().path("code").asText(), r.toString());
    }

    /** One job submitted through the command line, copied and varied in SQL. */
    private void populate(int jobs) throws Exception {
        cli.json("job", "submit", "--no-tick", "--gpus", "0", "--name", "seed", "--env", "K=v", "--tag", "a",
                "--note", "why", "--", "echo", "ü \"quoted\" \\ back");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE seed AS SELECT * FROM jobs WHERE id = 1");
            s.execute("UPDATE seed SET id = NULL, idempotency_key = NULL");
            s.execute("INSERT INTO jobs SELECT seed.* FROM seed, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
                    + " SELECT i + 1 FROM n WHERE i < " + (jobs - 1) + ") SELECT i FROM n)");
            // Running jobs have no start time here: their elapsed_s would depend on the instant of printing.
            s.execute("""
                    UPDATE jobs SET
                      name = 'job-' || id || CASE WHEN id % 11 = 0 THEN ' ünï "q" \\ / ' || char(10) || char(9) ELSE '' END,
                      state = CASE id % 7 WHEN 0 THEN 'pending' WHEN 1 THEN 'running' WHEN 2 THEN 'completed'
                              WHEN 3 THEN 'failed' WHEN 4 THEN 'cancelled' WHEN 5 THEN 'timeout' ELSE 'lost' END,
                      held_reason = CASE WHEN id % 14 = 0 THEN 'dependency 3 failed' WHEN id % 21 = 0 THEN '' END,
                      node = CASE WHEN id % 7 IN (1, 2, 3) THEN 'box' END,
                      node_constraint = CASE WHEN id % 5 = 0 THEN 'box' END,
                      started_at = CASE WHEN id % 7 IN (2, 3, 5) THEN created_at END,
                      finished_at = CASE WHEN id % 7 >= 2 THEN strftime('%Y-%m-%dT%H:%M:%S+00:00', created_at,
                                    '+' || (id * 37 % 5000) || ' seconds') END,
                      exit_code = CASE id % 7 WHEN 2 THEN 0 WHEN 3 THEN 137 END,
                      result = CASE WHEN id % 9 = 0 THEN '{"acc": 0.93, "nested": {"l": [1, 2.5, "x", null, true, -7]}}'
                               WHEN id % 13 = 0 THEN 'not json {' WHEN id % 17 = 0 THEN '"a string"' END,
                      progress = CASE WHEN id % 7 = 1 THEN 'epoch 3/10' END,
                      priority = id % 4 - 1,
                      remote_pid = CASE WHEN id % 7 = 1 THEN 4000 + id END,
                      run_dir = CASE WHEN id % 7 IN (1, 2, 3) THEN '/tmp/jobs/' || id END,
                      last_error = CASE WHEN id % 7 = 6 THEN 'node lost' END,
                      gpu_mem_mb = CASE WHEN id % 7 = 1 THEN 1000 + id END,
                      max_runtime_s = CASE WHEN id % 8 = 0 THEN 3600 END
                    WHERE id > 1""");
            // The lists (schema 4: child tables), varied the same way.
            for (String list : List.of(
                    "INSERT INTO job_gpus SELECT id, p.i, p.i FROM jobs, (SELECT 0 AS i UNION ALL SELECT 1) AS p WHERE id > 1 AND id % 7 = 1",
                    "INSERT INTO job_tags SELECT id, 0, 'a' FROM jobs WHERE id > 1 AND id % 3 = 0",
                    "INSERT INTO job_tags SELECT id, CASE WHEN id % 3 = 0 THEN 1 ELSE 0 END, 'b' FROM jobs WHERE id > 1 AND id % 3 != 1",
                    "INSERT INTO job_env SELECT id, 0, 'K', 'v' FROM jobs WHERE id > 1 AND id % 4 = 0",
                    "INSERT INTO job_env SELECT id, 1, 'EMPTY', '' FROM jobs WHERE id > 1 AND id % 4 = 0",
                    "INSERT INTO job_env SELECT id, 2, 'U', 'ü' FROM jobs WHERE id > 1 AND id % 4 = 0",
                    "INSERT INTO job_dependencies SELECT id, 'all', p.i, p.i + 1 FROM jobs,"
                            + " (SELECT 0 AS i UNION ALL SELECT 1) AS p WHERE id > 1 AND id % 6 = 0")) {
                s.execute(list);
            }
            for (int i = 1; i <= 25; i++) {
                s.execute("INSERT INTO alerts (ts, kind, severity, job_id, node, title, detail, acknowledged_at) VALUES"
                        + " ('2026-01-02T03:04:" + (10 + i) + "+00:00', 'job_failed', 'error', " + i + ", 'box',"
                        + " 'job " + i + " failed', 'exit 1', " + (i % 4 == 0 ? "'2026-01-03T00:00:00+00:00'" : "NULL") + ")");
            }
            s.execute("INSERT OR REPLACE INTO locks (name, owner, acquired_at, expires_at) VALUES ('scheduler',"
                    + " 'host:1', '2026-01-02T03:00:00+00:00', '2026-01-02T03:03:00+00:00')");
        }
    }

    private void assertSameBytes(List<String> command, int limit) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--json", "--no-tick"));
        Cli.Result streamed = cli.run(args.toArray(String[]::new));
        assertEquals(0, streamed.exit(), streamed.toString());
        assertEquals("", streamed.err());
        JobQuery query = new JobQuery(states(command), command.contains("--held"), value(command, "--node"),
                value(command, "--tag"), limit);
        String expected = withQueue(q -> {
            // job ls --json as it was before streaming.
            JobQueries.JobPage page = q.jobQueries().jobs(query);
            return new Listing(JobView.of(page.jobs(), Instant.now()), limit, limit > 0 && page.jobs().size() == limit);
        });
        assertEquals(expected, streamed.out(), String.join(" ", command));
        assertTrue(streamed.json().path("jobs").isArray());
    }

    private void assertStatusSameBytes() {
        Cli.Result streamed = cli.run("queue", "status", "--json", "--no-tick");
        assertEquals(0, streamed.exit(), streamed.toString());
        Matcher m = GENERATED_AT.matcher(streamed.out());
        assertTrue(m.find(), streamed.out());
        Instant now = Times.parse(m.group(1));
        String expected = withQueue(service -> {
            // queue status --json as it was before streaming.
            List<Job> active = service.jobQueries().jobs(new JobQuery(EnumSet.of(JobState.PENDING, JobState.RUNNING), false, null, null, 0))
                    .jobs().reversed();
            List<Job> recent = service.jobQueries().jobs(new JobQuery(EnumSet.noneOf(JobState.class), false, null, null, 20)).jobs()
                    .stream().filter(j -> j.state().terminal()).limit(10).toList();
            List<Job> held = active.stream().filter(Job::held).toList();
            var nodes = service.nodeAdmin().nodes(false);
            JobQueries.AlertPage alerts = service.jobQueries().alerts(false, 20);
            Map<String, Long> counts = service.jobQueries().countsByState();
            // No keeper is installed here.
            return new Status(Times.iso(now), service.info().database().toString(), null, Times.iso(service.lastTickAt()),
                    Times.iso(service.backups().lastBackupAt().orElse(null)), QueueDocuments.TickLock.of(service.tickLease()),
                    QueueDocuments.Daemon.of(service.daemon()), QueueDocuments.KeeperState.of(
                            new nvidb.core.api.Keeper.State(false, null, false, null, null, null, null)),
                    QueueDocuments.Settings.of(service.info()), counts, JobView.of(held, now),
                    nodes.stream().map(v -> NodeView.of(v, true)).toList(),
                    service.laneQueries().list(null).stream().map(v -> LaneView.Detail.of(v, now)).toList(),
                    JobView.of(active, now), JobView.of(recent, now),
                    alerts.alerts().stream().map(AlertView.Listed::of).toList(), alerts.open(),
                    service.nodeAdmin().pendingReaps(), nvidb.core.view.UserView.of(service.users()));
        });
        assertEquals(expected, streamed.out());
    }

    /** {@code job ls --json}, whole. */
    record Listing(List<JobView> jobs, int limit, boolean truncated) {
    }

    /** {@code queue status --json}, whole. */
    record Status(String generatedAt, String dbPath, String queueHost, String lastTickAt, String lastBackupAt,
                  QueueDocuments.TickLock tickLock, QueueDocuments.Daemon daemon, QueueDocuments.KeeperState keeper,
                  QueueDocuments.Settings settings, Map<String, Long> counts, List<JobView> held, List<NodeView> nodes,
                  List<LaneView.Detail> lanes, List<JobView> jobs, List<JobView> recent, List<AlertView.Listed> alerts, long openAlerts,
                  long pendingReaps, List<nvidb.core.view.UserView> users) {
    }

    /** The document {@code build} makes from an open queue, printed as Output prints one. */
    private String withQueue(java.util.function.Function<Queue, Object> build) {
        Map<String, String> env = Map.of("HOME", tmp.toString(), "NVIDB_HOME", cli.nvidbHome().toString(), "USER", "tester");
        try (QueueAccess access = QueueAccess.open(env, null, false, home -> List.of())) {
            Object doc = build.apply(access.queue());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            new Output(out, out).document(doc);
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    private static Set<JobState> states(List<String> command) {
        Set<JobState> states = EnumSet.noneOf(JobState.class);
        if (command.contains("--active")) {
            states.add(JobState.PENDING);
            states.add(JobState.RUNNING);
        }
        for (int i = 0; i < command.size() - 1; i++) {
            if (command.get(i).equals("--state")) {
                states.add(JobState.fromLabel(command.get(i + 1)));
            }
        }
        return states;
    }

    private static String value(List<String> command, String option) {
        int i = command.indexOf(option);
        return i < 0 ? null : command.get(i + 1);
    }
}
