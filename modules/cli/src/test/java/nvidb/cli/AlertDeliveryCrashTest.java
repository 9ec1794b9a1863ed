package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code queue tick} processes delivering to a slow command sink at once deliver each alert once;
 * SIGKILLed while they deliver (one-pass ticks, or daemons), they lose none: afterwards every
 * alert reached the command and the log sink, the database records each delivery once, and the
 * only repeats a consumer sees are the ones docs/alerts.md allows (a kill between a sink's success and
 * its record repeats that one delivery), each droppable by the alert's id.
 */
class AlertDeliveryCrashTest {
    private static final int ALERTS = 12;
    private static final int ROUNDS = 6;

    @TempDir
    Path tmp;

    /** A queue with {@link #ALERTS} alerts not yet delivered, a slow command sink and the log sink. */
    private Cli queueWithAlerts(Path received) throws Exception {
        Cli cli = new Cli(tmp);
        // Slow on both sides of the write, so a kill may land before the sink took the alert, or
        // after it took it and before the pass recorded that. One printf: one write of one line.
        String command = "sleep 0.2; line=$(cat); printf '%s\\n' \"$line\" >> '" + received + "'; sleep 0.3";
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs")
                + "\n  notify:\n    desktop: false\n    command: \"" + command.replace("\\", "\\\\").replace("\"", "\\\"")
                + "\"\n");
        cli.json("job", "ls"); // creates the database
        raiseAlerts(cli.database());
        return cli;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void passesOfConcurrentProcessesDeliverEachAlertOnce() throws Exception {
        Path received = tmp.resolve("command.jsonl");
        Cli cli = queueWithAlerts(received);
        List<Process> ticks = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ticks.add(cli.start("queue", "tick", "--json"));
        }
        for (Process p : ticks) {
            Cli.Result r = Cli.finish(p, 90);
            assertEquals(0, r.exit(), r.toString());
        }
        settle(cli);
        Map<Long, Long> byCommand = idCounts(lines(received));
        Map<Long, Long> byLog = idCounts(lines(cli.nvidbHome().resolve("alerts.log")));
        assertEquals(alertIds(cli), List.copyOf(byCommand.keySet()));
        assertEquals(0, repeats(byCommand), "the delivery lease lets one process deliver at a time: " + byCommand);
        assertEquals(0, repeats(byLog), byLog.toString());
        assertEquals(ALERTS, byLog.size());
    }

    /** @param deliverer {@code tick}: one-pass processes; {@code daemon}: daemons, each replaced at once by the next */
    @ParameterizedTest
    @ValueSource(strings = {"tick", "daemon"})
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void killedDeliverersLoseNothingAndRepeatOnlyWhatAKillInterrupted(String deliverer) throws Exception {
        Path received = tmp.resolve("command.jsonl");
        Cli cli = queueWithAlerts(received);

        long seed = System.nanoTime();
        Random random = new Random(seed);
        int kills = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int before = lines(received).size();
            Process tick = deliverer.equals("daemon") ? cli.start("queue", "daemon")
                    : cli.start("queue", "tick", "--json");
            // Kill only once this process is delivering: a line more has reached the command sink.
            Instant deadline = Instant.now().plusSeconds(60);
            while (tick.isAlive() && lines(received).size() == before && Instant.now().isBefore(deadline)) {
                Thread.sleep(10);
            }
            if (!tick.isAlive() || lines(received).size() == before) {
                tick.destroyForcibly();
                tick.waitFor(10, TimeUnit.SECONDS);
                break; // it delivered everything left before a kill could land
            }
            Thread.sleep(random.nextInt(600));
            List<ProcessHandle> children = tick.descendants().toList();
            tick.destroyForcibly(); // SIGKILL: no shutdown hook, no lease given back
            tick.waitFor(10, TimeUnit.SECONDS);
            kills++;
            // A command the killed JVM started finishes on its own; count only after it has.
            for (ProcessHandle child : children) {
                child.onExit().get(10, TimeUnit.SECONDS);
            }
        }
        assertTrue(kills >= 1, "no tick was killed while delivering (seed " + seed + ")");

        // Passes nobody kills settle the rest; the killed holders' lease is taken over at once.
        settle(cli);

        String why = deliverer + ", seed " + seed + ", " + kills + " kills";
        Map<Long, Long> byCommand = idCounts(lines(received));
        Map<Long, Long> byLog = idCounts(lines(cli.nvidbHome().resolve("alerts.log")));
        List<Long> ids = alertIds(cli);
        assertEquals(ids, List.copyOf(byCommand.keySet()), "every alert reached the command sink: " + why);
        assertEquals(ids, List.copyOf(byLog.keySet()), "every alert reached the log sink: " + why);
        long commandRepeats = repeats(byCommand);
        long logRepeats = repeats(byLog);
        assertTrue(commandRepeats + logRepeats <= kills,
                "at most one repeat per kill (" + commandRepeats + " command, " + logRepeats + " log): " + why);

        for (JsonNode alert : alerts(cli)) {
            assertTrue(alert.path("notified_at").isTextual(), alert.toString());
            assertEquals(2, alert.path("deliveries").size(), alert.toString());
            for (JsonNode d : alert.path("deliveries")) {
                assertEquals("delivered", d.path("state").asText(), alert.toString());
                assertEquals(1, d.path("attempts").asInt(), "recorded once, a killed try leaves no record: " + alert);
            }
        }
        System.out.printf("AlertDeliveryCrashTest: %d alerts, %d kills mid-delivery, repeats: command %d, log %d (%s)%n",
                ALERTS, kills, commandRepeats, logRepeats, why);
    }

    private static void settle(Cli cli) throws Exception {
        for (int pass = 0; pass < 10 && unsettled(cli.database()) > 0; pass++) {
            Cli.Result r = cli.run("queue", "tick", "--json");
            assertEquals(0, r.exit(), r.toString());
        }
        assertEquals(0, unsettled(cli.database()), "every alert's delivery settled");
    }

    private static void raiseAlerts(Path database) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database);
             PreparedStatement ps = c.prepareStatement("INSERT INTO alerts (ts, kind, severity, job_id, node, title)"
                     + " VALUES (?, 'job_failed', 'error', ?, 'local', ?)")) {
            for (int i = 1; i <= ALERTS; i++) {
                ps.setString(1, "2026-03-01T10:00:" + String.format("%02d", i) + "+00:00");
                ps.setLong(2, i);
                ps.setString(3, "job " + i + " failed with exit code 1");
                ps.executeUpdate();
            }
        }
    }

    private static long unsettled(Path database) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM alerts WHERE notified_at IS NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<JsonNode> alerts(Cli cli) {
        Cli.Result r = cli.run("queue", "alerts", "--all", "--no-tick", "--json");
        assertEquals(1, r.exit(), r.toString());
        return java.util.stream.StreamSupport.stream(r.json().path("alerts").spliterator(), false).toList();
    }

    private static List<Long> alertIds(Cli cli) {
        return alerts(cli).stream().map(a -> a.path("id").asLong()).sorted().toList();
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList() : List.of();
    }

    /** How often each alert id was received; every line must be one whole alert document. */
    private static Map<Long, Long> idCounts(List<String> lines) throws IOException {
        Map<Long, Long> counts = new TreeMap<>();
        for (String line : lines) {
            JsonNode alert = Cli.JSON.readTree(line);
            assertEquals("job_failed", alert.path("kind").asText(), "a whole document per line: " + line);
            counts.merge(alert.path("id").asLong(), 1L, Long::sum);
        }
        return counts;
    }

    private static long repeats(Map<Long, Long> counts) {
        return counts.values().stream().mapToLong(n -> n - 1).sum();
    }
}
