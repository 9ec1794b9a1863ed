package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: "a backup taken while four processes submit: integrity ok, and every job acknowledged
 * before it began is in it". Four shell loops run the built image's {@code job submit} back to
 * back and write down each name once its submit has returned; between them, {@code queue backup}
 * runs as a process of its own, several times. Each backup must pass {@code integrity_check} and
 * hold every name written down before that backup was started (later ones may be in it too), and
 * rotation must leave the newest three.
 */
class BackupUnderLoadIT {
    private static final int SUBMITTERS = 4;
    private static final int BACKUPS = 5;
    private static final int KEEP = 3;

    @TempDir
    Path tmp;

    @Test
    void backupsTakenWhileFourProcessesSubmitHoldEveryAcknowledgedJob() throws Exception {
        Path nvidb = Client.image();
        Path home = Files.createDirectories(tmp.resolve("home"));
        // No node: the submits exercise the queue file (and each one's scheduler pass), not job execution.
        Files.writeString(home.resolve("queue.yml"), "queue:\n  include_local: false\n");
        Map<String, String> env = Map.of("NVIDB_HOME", home.toString());
        Path stop = tmp.resolve("stop");

        List<Process> submitters = new ArrayList<>();
        for (int p = 0; p < SUBMITTERS; p++) {
            Path acked = tmp.resolve("acked-" + p);
            ProcessBuilder pb = new ProcessBuilder("sh", "-c", "i=0; while [ ! -e \"$STOP\" ]; do"
                    + " \"$NVIDB\" job submit --json --gpus 0 --name p" + p + "-$i -- true > /dev/null || exit 1;"
                    + " echo p" + p + "-$i >> \"$ACKED\"; i=$((i+1)); done")
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("submitter-" + p + ".log").toFile());
            pb.environment().putAll(env);
            pb.environment().remove("NVIDB_QUEUE_DB");
            pb.environment().putAll(Map.of("NVIDB", nvidb.toString(), "STOP", stop.toString(), "ACKED", acked.toString()));
            submitters.add(pb.start());
        }

        List<Long> tookMs = new ArrayList<>();
        List<Integer> acknowledgedBefore = new ArrayList<>();
        List<Path> written = new ArrayList<>();
        try {
            waitForAcknowledged(SUBMITTERS * 2);
            for (int round = 0; round < BACKUPS; round++) {
                Set<String> acknowledged = acknowledged();
                Client backup = Client.start(nvidb, env, tmp, "backup", null, -1,
                        List.of("queue", "backup", "--json", "--keep", String.valueOf(KEEP)));
                assertEquals(0, backup.finish(120), backup + "\n" + backup.stdout() + backup.stderr());
                JsonNode doc = backup.document().path("backup");
                Path file = Path.of(doc.path("path").asText());
                written.add(file);
                tookMs.add(doc.path("took_ms").asLong());
                acknowledgedBefore.add(acknowledged.size());
                assertEquals("ok", doc.path("quick_check").asText());
                Set<String> inBackup = names(file);
                Set<String> lost = new TreeSet<>(acknowledged);
                lost.removeAll(inBackup);
                assertEquals(Set.of(), lost, "acknowledged before backup " + round + " began, missing from " + file);
                waitForAcknowledged(acknowledged.size() + SUBMITTERS);
            }
        } finally {
            Files.writeString(stop, "");
            for (Process s : submitters) {
                s.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
        for (int p = 0; p < SUBMITTERS; p++) {
            assertEquals(0, submitters.get(p).exitValue(), Files.readString(tmp.resolve("submitter-" + p + ".log")));
        }
        Set<String> all = acknowledged();
        assertEquals(all, names(home.resolve("queue.db")), "the live queue holds exactly the acknowledged jobs");
        try (Stream<Path> files = Files.list(home.resolve("backups"))) {
            assertEquals(new TreeSet<>(written.subList(BACKUPS - KEEP, BACKUPS)), new TreeSet<>(files.toList()),
                    "rotation keeps the newest " + KEEP);
        }
        System.out.println("BackupUnderLoadIT: " + all.size() + " jobs submitted by " + SUBMITTERS
                + " processes; backups taken with " + acknowledgedBefore + " jobs acknowledged before each began;"
                + " took_ms " + tookMs);
    }

    /** Names whose submit has returned: complete lines of the submitters' files. */
    private Set<String> acknowledged() throws IOException {
        Set<String> names = new HashSet<>();
        for (int p = 0; p < SUBMITTERS; p++) {
            Path f = tmp.resolve("acked-" + p);
            if (!Files.exists(f)) {
                continue;
            }
            String text = Files.readString(f);
            int end = text.lastIndexOf('\n');
            if (end >= 0) {
                names.addAll(List.of(text.substring(0, end).split("\n")));
            }
        }
        return names;
    }

    private void waitForAcknowledged(int n) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (acknowledged().size() < n) {
            assertTrue(System.nanoTime() < deadline, "the submitters stalled at " + acknowledged().size() + " jobs");
            Thread.sleep(50);
        }
    }

    /** The job names in a database file, after {@code PRAGMA integrity_check} says ok. */
    private static Set<String> names(Path db) throws Exception {
        Set<String> names = new HashSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout=30000");
            try (ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                assertTrue(rs.next());
                assertEquals("ok", rs.getString(1), db + " fails integrity_check");
            }
            try (ResultSet rs = s.executeQuery("SELECT name FROM jobs")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }
}
