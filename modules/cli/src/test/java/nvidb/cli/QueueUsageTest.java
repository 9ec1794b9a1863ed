package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.Times;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue usage} against figures worked out by hand: jobs submitted through the CLI into a
 * real queue file, then given fixed runs (start, end, node, account) and fixed measurements (peak,
 * idle GPU-seconds, joules) the way the passes would have written them.
 */
class QueueUsageTest {
    static final String SINCE = "2026-11-10T00:00:00Z";
    static final String HEADER = "jobs,gpu_hours,vram_gib_hours_reserved,vram_gib_hours_peak,idle_gpu_hours,energy_kwh";

    @TempDir
    Path tmp;
    Cli cli;
    long sweepId;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        sweepId = november(cli);
    }

    /** The jobs of November, by hand, into {@code cli}'s queue (the web's test reads them too); the sweep's id. */
    static long november(Cli cli) throws Exception {
        // 1: alice, train-1 on alpha, 2 GPUs of 8 GiB, 3 h inside the window; peak 6 GiB; idle 0.5 GPU-h; 1.2 kWh.
        long j1 = submit(cli, "--gpus", "2", "--vram", "8G", "--name", "train-1");
        ran(cli, j1, "completed", "alice", "alpha", "2026-11-10T01:00:00Z", "2026-11-10T04:00:00Z", 6144, 10, 1800, 4_320_000.0);
        // 2: alice, train-2 on beta, 1 GPU of 4 GiB, 4 h of which 2 h after --since; nothing measured but 2 kWh.
        long j2 = submit(cli, "--gpus", "1", "--vram", "4G", "--name", "train-2");
        ran(cli, j2, "failed", "alice", "beta", "2026-11-09T22:00:00Z", "2026-11-10T02:00:00Z", null, 0, 0, 7_200_000.0);
        // 3: bob, the one run of a sweep, on alpha: 1 GPU of 2 GiB for 30 min; peak 512 MiB; never idle; 0.1 kWh.
        JsonNode sweep = cli.json("job", "sweep", "--no-tick", "-n", "grid", "--grid", "a=1", "--gpus", "1", "--vram", "2G",
                "--", "echo", "{a}");
        long sweepId = sweep.path("sweep").path("id").asLong();
        long j3 = sweep.path("runs").path(0).path("job_id").asLong();
        ran(cli, j3, "completed", "bob", "alpha", "2026-11-11T00:00:00Z", "2026-11-11T00:30:00Z", 512, 4, 0, 360_000.0);
        // 4: carol, before the window: 1 GPU for an hour.
        long j4 = submit(cli, "--gpus", "1", "--vram", "1G", "--name", "old");
        ran(cli, j4, "completed", "carol", "alpha", "2026-11-08T00:00:00Z", "2026-11-08T01:00:00Z", null, 0, 0, null);
        // 5: still pending, and 6: cancelled before it ran: neither counts.
        submit(cli, "--gpus", "1", "--name", "waiting");
        long j6 = submit(cli, "--gpus", "1", "--name", "never");
        sql(cli, "UPDATE jobs SET state = 'cancelled', finished_at = ?, user = 'alice' WHERE id = ?", "2026-11-10T05:00:00Z", j6);
        return sweepId;
    }

    private long submit(String... args) {
        return submit(cli, args);
    }

    private static long submit(Cli cli, String... args) {
        List<String> all = new ArrayList<>(List.of("job", "submit", "--no-tick"));
        all.addAll(List.of(args));
        all.addAll(List.of("--", "true"));
        return cli.json(all.toArray(String[]::new)).path("job").path("id").asLong();
    }

    private static void ran(Cli cli, long id, String state, String user, String node, String started, String finished, Integer peakMb,
                     int utilSamples, double idleGpuS, Double joules) throws Exception {
        sql(cli, "UPDATE jobs SET state = ?, user = ?, node = ?, started_at = ?, finished_at = ?, peak_vram_mb = ?,"
                + " util_samples = ?, idle_gpu_s = ?, energy_j = ? WHERE id = ?",
                state, user, node, started, finished, peakMb, utilSamples, idleGpuS, joules, id);
    }

    private void sql(String statement, Object... values) throws Exception {
        sql(cli, statement, values);
    }

    static void sql(Cli cli, String statement, Object... values) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement ps = c.prepareStatement(statement)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }

    private JsonNode usage(String... args) {
        List<String> all = new ArrayList<>(List.of("queue", "usage", "--no-tick"));
        all.addAll(List.of(args));
        return cli.json(all.toArray(String[]::new));
    }

    /** A row as its figures, in the document's order: key, jobs, then the six figures ("null" where unmeasured). */
    private static String figures(JsonNode row) {
        return row.path("key").asText("null") + " " + row.path("jobs").asLong() + " " + row.path("gpu_hours").asText() + " "
                + row.path("vram_gib_hours_reserved").asText() + " " + row.path("vram_gib_hours_peak").asText("null") + " "
                + row.path("idle_gpu_hours").asText("null") + " " + row.path("energy_kwh").asText("null");
    }

    private static List<String> rows(JsonNode doc) {
        List<String> out = new ArrayList<>();
        doc.path("rows").forEach(r -> out.add(figures(r)));
        return out;
    }

    @Test
    void byUserTheFiguresAreTheHandWorkedOnesClippedToTheWindow() {
        JsonNode doc = usage("--since", SINCE);
        assertEquals("2026-11-10T00:00:00+00:00", doc.path("since").asText(), doc.toString());
        assertEquals("user", doc.path("by").asText());
        assertTrue(Times.parse(doc.path("until").asText()).isAfter(Instant.now().minusSeconds(60)), doc.toString());
        // alice: 2×3 + 1×2 GPU-h; 8×2×3 + 4×1×2 GiB-h reserved; 6×2×3 at peak (job 2 unmeasured); 0.5 idle
        // (job 2 had no utilisation sample); 1.2 + half of 2 kWh (half of job 2's run is in the window).
        assertEquals(List.of("alice 2 8.0 56.0 36.0 0.5 2.2", "bob 1 0.5 1.0 0.25 0.0 0.1"), rows(doc));
        assertEquals("null 3 8.5 57.0 36.25 0.5 2.3", figures(doc.path("total")));
    }

    @Test
    void everyGroupingAndEveryJobSinceTheFirst() {
        assertEquals(List.of("alpha 2 6.5 49.0 36.25 0.5 1.3", "beta 1 2.0 8.0 null null 1.0"),
                rows(usage("--since", SINCE, "--by", "node")));
        assertEquals(List.of("null 2 8.0 56.0 36.0 0.5 2.2", sweepId + " 1 0.5 1.0 0.25 0.0 0.1"),
                rows(usage("--since", SINCE, "--by", "sweep")));
        assertEquals(List.of("train-1 1 6.0 48.0 36.0 0.5 1.2", "train-2 1 2.0 8.0 null null 1.0",
                "grid-0 1 0.5 1.0 0.25 0.0 0.1"), rows(usage("--since", SINCE, "--by", "name")).subList(0, 3));
        JsonNode all = usage("--since", "all");
        assertTrue(all.path("since").isNull(), all.toString());
        // Every run whole: job 2's four hours and all its energy, and carol's hour.
        assertEquals(List.of("alice 2 10.0 64.0 36.0 0.5 3.2", "carol 1 1.0 1.0 null null null",
                "bob 1 0.5 1.0 0.25 0.0 0.1"), rows(all));
    }

    @Test
    void aRunningJobCountsUpToNowAndAWindowCutsIt() throws Exception {
        long running = submit("--gpus", "2", "--vram", "1G", "--name", "live");
        String started = Times.iso(Instant.now().minus(Duration.ofHours(2)));
        sql("UPDATE jobs SET state = 'running', user = 'dave', node = 'alpha', started_at = ? WHERE id = ?", started, running);
        JsonNode doc = usage("--since", "all", "--by", "name");
        JsonNode live = null;
        for (JsonNode r : doc.path("rows")) {
            live = r.path("key").asText().equals("live") ? r : live;
        }
        long seconds = Times.parse(doc.path("until").asText()).getEpochSecond() - Times.parse(started).getEpochSecond();
        assertEquals(Math.round(2 * seconds / 3600.0 * 1e6) / 1e6, live.path("gpu_hours").asDouble(), doc.toString());
        // The last hour: exactly an hour of its two GPUs, and nothing of the jobs of November.
        JsonNode hour = usage("--since", "1h");
        assertEquals(List.of("dave 1 2.0 2.0 null null null"), rows(hour));
        assertEquals("null 1 1.0 1.0 null null null", figures(usage("--since", "30m", "--by", "sweep").path("total")));
    }

    @Test
    void csvIsAHeaderARowAGroupAndTheTotal() {
        Cli.Result r = cli.run("queue", "usage", "--no-tick", "--since", SINCE, "--csv");
        assertEquals(0, r.exit(), r.toString());
        assertEquals("user," + HEADER + "\r\n"
                + "alice,2,8,56,36,0.5,2.2\r\n"
                + "bob,1,0.5,1,0.25,0,0.1\r\n"
                + "total,3,8.5,57,36.25,0.5,2.3\r\n", r.out());
        Cli.Result byNode = cli.run("queue", "usage", "--no-tick", "--since", SINCE, "--by", "node", "--csv");
        assertEquals("node," + HEADER + "\r\n"
                + "alpha,2,6.5,49,36.25,0.5,1.3\r\n"
                + "beta,1,2,8,,,1\r\n"
                + "total,3,8.5,57,36.25,0.5,2.3\r\n", byNode.out());
    }

    @Test
    void theTableHasARowAUserAndTheTotal() {
        Cli.Result r = cli.run("queue", "usage", "--no-tick", "--since", SINCE);
        assertEquals(0, r.exit(), r.toString());
        List<String> lines = r.out().lines().toList();
        assertEquals("usage since 2026-11-10T00:00:00+00:00 until", lines.get(0).substring(0, 43), r.out());
        assertTrue(lines.get(1).strip().matches("user\\s+jobs\\s+gpu_hours\\s+vram_gib_hours_reserved.*"), r.out());
        assertTrue(lines.get(2).strip().matches("alice\\s+2\\s+8\\s+56\\s+36\\s+0\\.5\\s+2\\.2"), r.out());
        assertTrue(lines.get(4).strip().matches("total\\s+3\\s+8\\.5\\s+57\\s+36\\.25\\s+0\\.5\\s+2\\.3"), r.out());
    }

    @Test
    void aBadSinceOrByIsAUsageErrorNamingTheForms() {
        Cli.Result since = cli.run("queue", "usage", "--no-tick", "--since", "yesterday");
        assertEquals(64, since.exit(), since.toString());
        assertTrue(since.err().contains("--since takes a duration such as 7d, 12h or 30m, an ISO date or time"
                + " (2026-12-01, 2026-12-01T09:00:00Z), or all, not 'yesterday'"), since.toString());
        Cli.Result by = cli.run("queue", "usage", "--no-tick", "--by", "team", "--json");
        assertEquals(64, by.exit(), by.toString());
        assertEquals("--by takes user, sweep, node or name, not 'team'", by.json().path("error").asText(), by.toString());
        assertEquals("usage", by.json().path("code").asText(), by.toString());
        Cli.Result both = cli.run("queue", "usage", "--no-tick", "--csv", "--json");
        assertEquals(64, both.exit(), both.toString());
        Cli.Result future = cli.run("queue", "usage", "--no-tick", "--since", "2999-01-01");
        assertEquals(64, future.exit(), future.toString());
        assertTrue(future.err().contains("is in the future"), future.toString());
    }
}
