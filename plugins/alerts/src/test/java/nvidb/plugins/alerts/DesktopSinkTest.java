package nvidb.plugins.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.DeliverySkippedException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The desktop sink with fake notifiers that record their arguments, one per NUL-ended record. */
class DesktopSinkTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private Path bin;
    private Path argsFile;

    @BeforeEach
    void makeBin() throws IOException {
        bin = Files.createDirectory(dir.resolve("bin"));
        argsFile = dir.resolve("args");
    }

    private void fake(Path folder, String name, String extra) throws IOException {
        Path script = folder.resolve(name);
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\0' \"$0\" \"$@\" > '" + argsFile + "'\n" + extra + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    }

    /** What the fake was called as and with, program name first. */
    private List<String> recorded() throws IOException {
        String raw = Files.readString(argsFile, StandardCharsets.UTF_8);
        return Arrays.asList(raw.substring(0, raw.length() - 1).split("\0", -1));
    }

    private DesktopSink linux(String path) {
        return new DesktopSink(path, false, TIMEOUT);
    }

    @Test
    void notifySendGetsTheKindAsTitleAndTheJobAndNodeInTheBody() throws Exception {
        fake(bin, "notify-send", "");
        linux("/nonexistent-dir" + File.pathSeparator + bin)
                .deliver(Alerts.alert(1, "job_failed", 12L, "big-node", "train failed with exit code 1"));
        assertEquals(List.of(bin.resolve("notify-send").toString(), "--", "nvidb: job failed",
                "train failed with exit code 1 [job 12 on big-node]"), recorded());
    }

    @Test
    void theBodyNamesOnlyWhatTheAlertHas() {
        assertEquals("node gone [on n1]", DesktopSink.body(Alerts.alert(1, "node_down", null, "n1", "node gone")));
        assertEquals("held [job 3]", DesktopSink.body(Alerts.alert(1, "job_held", 3L, null, "held")));
        assertEquals("plain", DesktopSink.body(Alerts.alert(1, "job_held", null, null, "plain")));
        assertEquals("nvidb: job unschedulable", DesktopSink.title(Alerts.alert(1, "job_unschedulable", null, null, "x")));
    }

    @Test
    void hostileTitlesArriveAsOneArgumentEach() throws Exception {
        fake(bin, "notify-send", "");
        String title = "-u critical \"$(touch " + dir.resolve("pwned") + ")\" `id` 'quoted'";
        linux(bin.toString()).deliver(Alerts.alert(1, "launch_failed", 4L, "n", title));
        assertEquals(title + " [job 4 on n]", recorded().get(3));
        assertFalse(Files.exists(dir.resolve("pwned")));
    }

    @Test
    void withoutNotifySendOnThePathTheDeliveryIsSkippedSayingSo() throws Exception {
        // A notify-send that cannot be run does not count, nor does one in a relative PATH entry.
        Files.writeString(bin.resolve("notify-send"), "#!/bin/sh\n");
        AlertMessage alert = Alerts.alert(1, "job_failed", null, null, "x");
        DeliverySkippedException e = assertThrows(DeliverySkippedException.class,
                () -> linux(bin + File.pathSeparator + "bin").deliver(alert));
        assertTrue(e.getMessage().contains("notify-send is not on PATH"), e.getMessage());
        assertTrue(e.getMessage().contains("queue.notify.desktop: false"), e.getMessage());
        assertThrows(DeliverySkippedException.class, () -> linux(null).deliver(alert));
        assertThrows(DeliverySkippedException.class, () -> new DesktopSink(dir.toString(), true, TIMEOUT).deliver(alert),
                "on macOS, neither notifier");
    }

    @Test
    void aFailingNotifierFailsTheDeliveryWithItsCodeAndComplaint() throws Exception {
        fake(bin, "notify-send", "echo 'Cannot autolaunch D-Bus without X11 $DISPLAY' >&2\nexit 1");
        IOException e = assertThrows(IOException.class,
                () -> linux(bin.toString()).deliver(Alerts.alert(1, "job_failed", null, null, "x")));
        assertTrue(e.getMessage().startsWith("notify-send exited with code 1"), e.getMessage());
        assertTrue(e.getMessage().endsWith("Cannot autolaunch D-Bus without X11 $DISPLAY"), e.getMessage());
    }

    @Test
    void aHangingNotifierIsKilledAtTheTimeout() throws Exception {
        fake(bin, "notify-send", "exec sleep 30");
        DesktopSink sink = new DesktopSink(bin.toString(), false, Duration.ofMillis(500));
        long start = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> sink.deliver(Alerts.alert(1, "job_lost", null, null, "x")));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(2)) < 0);
        assertTrue(e.getMessage().contains("did not finish within 0.5s"), e.getMessage());
    }

    @Test
    void onMacOsTerminalNotifierIsPreferred() throws Exception {
        fake(bin, "terminal-notifier", "");
        fake(bin, "osascript", "exit 9");
        new DesktopSink(bin.toString(), true, TIMEOUT).deliver(Alerts.alert(1, "job_timeout", 5L, "mac", "ran too long"));
        assertEquals(List.of(bin.resolve("terminal-notifier").toString(), "-title", "nvidb: job timeout",
                "-message", "ran too long [job 5 on mac]"), recorded());
    }

    @Test
    void onMacOsWithoutTerminalNotifierOsascriptGetsEscapedStrings() throws Exception {
        fake(bin, "osascript", "");
        new DesktopSink(bin.toString(), true, TIMEOUT)
                .deliver(Alerts.alert(1, "job_failed", null, null, "said \"no\" at C:\\tmp"));
        assertEquals(List.of(bin.resolve("osascript").toString(), "-e",
                "display notification \"said \\\"no\\\" at C:\\\\tmp\" with title \"nvidb: job failed\""), recorded());
    }
}
