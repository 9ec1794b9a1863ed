package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.SinkContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import nvidb.testkit.Pids;

class CommandSinkTest {

    @TempDir
    Path dir;

    private final AlertMessage alert = Alerts.alert(7, "job_failed", 12L, "big-node", "train failed with exit code 1");
    private final List<Long> leftRunning = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        leftRunning.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private AlertSink configured(String command) {
        return new CommandSinkFactory().create(Map.of("command", command), new SinkContext(dir));
    }

    @Test
    void feedsTheAlertJsonOnStdinWithoutATrailingNewline() throws Exception {
        Path got = dir.resolve("got.json");
        configured("cat > '" + got + "'").deliver(alert);
        assertEquals(alert.json(), Files.readString(got));
    }

    @Test
    void theCommandIsAShellCommandLine() throws Exception {
        Path got = dir.resolve("kind.txt");
        configured("tr 'a-z' 'A-Z' | grep -o 'JOB_FAILED' > '" + got + "'").deliver(alert);
        assertEquals("JOB_FAILED\n", Files.readString(got));
    }

    @Test
    void aCommandThatIgnoresItsInputStillDelivers() throws Exception {
        Path touched = dir.resolve("touched");
        configured("touch '" + touched + "'").deliver(alert);
        assertTrue(Files.exists(touched));
    }

    @Test
    void nonZeroExitFailsWithTheCodeAndTheLastLineOfStderr() {
        AlertSink sink = configured("echo 'first complaint' >&2; echo 'webhook answered 503' >&2; echo; exit 3");
        IOException e = assertThrows(IOException.class, () -> sink.deliver(alert));
        assertTrue(e.getMessage().contains("code 3"), e.getMessage());
        assertTrue(e.getMessage().endsWith("webhook answered 503"), e.getMessage());
        assertFalse(e.getMessage().contains("first complaint"), e.getMessage());
    }

    @Test
    void nonZeroExitWithoutStderrStillSaysTheCode() {
        IOException e = assertThrows(IOException.class, () -> configured("exit 42").deliver(alert));
        assertTrue(e.getMessage().contains("code 42"), e.getMessage());
        assertTrue(e.getMessage().contains("nothing on stderr"), e.getMessage());
    }

    @Test
    void aHangingCommandIsKilledAtTheTimeoutAndFails() throws Exception {
        Path pidFile = dir.resolve("sleep.pid");
        AlertSink sink = new CommandSink("sleep 30 & echo $! > '" + pidFile + "'; echo 'still waiting' >&2; wait",
                Duration.ofSeconds(1));
        long start = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> sink.deliver(alert));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "took " + took);
        assertTrue(e.getMessage().contains("did not finish within 1s"), e.getMessage());
        assertTrue(e.getMessage().contains("exit code"), e.getMessage());
        assertTrue(e.getMessage().endsWith("still waiting"), e.getMessage());
        long sleepPid = Long.parseLong(Files.readString(pidFile).trim());
        leftRunning.add(sleepPid);
        assertTrue(gone(sleepPid), "the command's child must be killed with it");
    }

    @Test
    void aBackgroundJobHoldingStderrDoesNotHoldTheDelivery() throws Exception {
        Path pidFile = dir.resolve("bg.pid");
        AlertSink sink = configured("sleep 5 & echo $! > '" + pidFile + "'; exit 0");
        long start = System.nanoTime();
        sink.deliver(alert);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        leftRunning.add(Long.parseLong(Files.readString(pidFile).trim()));
        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
    }

    private static boolean gone(long pid) throws InterruptedException {
        return Pids.goneWithin(pid, Duration.ofSeconds(5));
    }
}
