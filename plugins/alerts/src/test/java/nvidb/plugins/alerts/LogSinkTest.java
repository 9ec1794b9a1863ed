package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.SinkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSinkTest {

    @TempDir
    Path dir;

    /** A long line, so that racing writers that were not serialized would visibly tear it. */
    static String lineFor(String writer, int n) {
        return "{\"writer\": \"" + writer + "\", \"n\": " + n + ", \"pad\": \"" + "x".repeat(3000) + "\"}";
    }

    private AlertSink sinkIn(Path home) {
        return new LogSinkFactory().create(Map.of(), new SinkContext(home));
    }

    @Test
    void appendsEachAlertAsOneJsonLineInAlertsLog() throws Exception {
        AlertSink sink = sinkIn(dir);
        AlertMessage first = Alerts.alert(1, "job_failed", 12L, "big-node", "train failed with exit code 1");
        AlertMessage second = Alerts.alert(2, "node_down", null, "other", "node other is unreachable: \"timeout\"");
        sink.deliver(first);
        sink.deliver(second);
        assertEquals(List.of(first.json(), second.json()), Files.readAllLines(dir.resolve("alerts.log")));
    }

    @Test
    void keepsWhatTheLogAlreadyHeld() throws Exception {
        Files.writeString(dir.resolve("alerts.log"), "{\"id\": 0}\n");
        sinkIn(dir).deliver(Alerts.withJson(1, "{\"id\": 1}"));
        assertEquals("{\"id\": 0}\n{\"id\": 1}\n", Files.readString(dir.resolve("alerts.log")));
    }

    @Test
    void nonAsciiTextIsWrittenAsUtf8() throws Exception {
        sinkIn(dir).deliver(Alerts.withJson(1, "{\"title\": \"Übung ✓ 训练\"}"));
        assertEquals("{\"title\": \"Übung ✓ 训练\"}\n",
                new String(Files.readAllBytes(dir.resolve("alerts.log")), StandardCharsets.UTF_8));
    }

    @Test
    void createsAMissingHomeOwnerOnlyAndTheLogOwnerOnly() throws Exception {
        Path home = dir.resolve("a").resolve("nvidb-home");
        sinkIn(home).deliver(Alerts.withJson(1, "{}"));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("alerts.log"))));
    }

    @Test
    void prettyPrintedJsonStillTakesOneLine() throws Exception {
        String pretty = "{\n  \"id\": 3,\r\n  \"title\": \"a\\nb\"\n}";
        sinkIn(dir).deliver(Alerts.withJson(3, pretty));
        List<String> lines = Files.readAllLines(dir.resolve("alerts.log"));
        assertEquals(List.of("{   \"id\": 3,   \"title\": \"a\\nb\" }"), lines);
    }

    @Test
    void aHomeThatIsAFileFailsTheDelivery() throws Exception {
        Path notADir = Files.writeString(dir.resolve("home"), "");
        assertThrows(IOException.class, () -> sinkIn(notADir).deliver(Alerts.withJson(1, "{}")));
    }

    @Test
    void concurrentAppendersInOneProcessNeverTearALine() throws Exception {
        int writers = 6;
        int each = 150;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String name = "thread-" + w;
                // A sink of its own per writer, as separate daemons' passes would have.
                AlertSink sink = sinkIn(dir);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        sink.deliver(Alerts.withJson(i, lineFor(name, i)));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> expected = new HashSet<>();
        for (int w = 0; w < writers; w++) {
            for (int i = 0; i < each; i++) {
                expected.add(lineFor("thread-" + w, i));
            }
        }
        List<String> lines = Files.readAllLines(dir.resolve("alerts.log"));
        assertEquals(writers * each, lines.size());
        assertEquals(expected, new HashSet<>(lines));
    }

    @Test
    void concurrentAppendersInSeveralProcessesNeverTearALine() throws Exception {
        Path log = dir.resolve("alerts.log");
        int each = 200;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> others = new ArrayList<>();
        for (String writer : List.of("proc-a", "proc-b")) {
            others.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    LogAppenderMain.class.getName(), log.toString(), String.valueOf(each), writer)
                    .redirectErrorStream(true).redirectOutput(dir.resolve(writer + ".out").toFile()).start());
        }
        AlertSink sink = new LogSink(log);
        for (int i = 0; i < each; i++) {
            sink.deliver(Alerts.withJson(i, lineFor("here", i)));
        }
        for (Process p : others) {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "appender process did not finish");
            assertEquals(0, p.exitValue(), () -> readQuietly(dir.resolve("proc-a.out")) + readQuietly(dir.resolve("proc-b.out")));
        }
        Set<String> expected = new HashSet<>();
        for (String writer : List.of("proc-a", "proc-b", "here")) {
            for (int i = 0; i < each; i++) {
                expected.add(lineFor(writer, i));
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertEquals(3 * each, lines.size());
        assertEquals(expected, new HashSet<>(lines));
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
