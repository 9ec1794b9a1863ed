package nvidb.plugins.alerts;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;
import nvidb.spi.alert.DeliverySkippedException;

/**
 * Shows an alert as a desktop notification: {@code notify-send} on Linux; on macOS
 * {@code terminal-notifier} when installed, else {@code osascript}. Title {@code nvidb: <kind with _
 * as space>}, body {@code <title>[ [job J on NODE]]}, as the reference shows them.
 *
 * <p>The program is looked up on a PATH given to the constructor rather than left to the operating
 * system, so that a missing notifier is a clear message and tests can put a fake one first. A
 * missing notifier is not a failure: a headless queue host has none, and retrying would not give it
 * one. The delivery is skipped ({@link DeliverySkippedException}); a notifier that is there and
 * fails is a failed delivery, retried later.
 */
final class DesktopSink implements AlertSink {

    /** Notifiers answer at once; one that hangs (no session bus) must not stall delivery. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String path;
    private final boolean macOs;
    private final Duration timeout;

    DesktopSink(String path, boolean macOs, Duration timeout) {
        this.path = path == null ? "" : path;
        this.macOs = macOs;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public void deliver(AlertMessage alert) throws IOException, InterruptedException, DeliverySkippedException {
        Objects.requireNonNull(alert, "alert");
        String title = title(alert);
        String body = body(alert);
        List<String> argv = macOs ? macArgv(title, body) : linuxArgv(title, body);
        ChildProcess.Outcome outcome = ChildProcess.run(argv, new byte[0], timeout);
        if (!outcome.ok()) {
            throw new IOException(outcome.failure(Path.of(argv.getFirst()).getFileName().toString(), timeout));
        }
    }

    static String title(AlertMessage alert) {
        return "nvidb: " + alert.kind().replace('_', ' ');
    }

    static String body(AlertMessage alert) {
        List<String> where = new ArrayList<>(2);
        if (alert.jobId() != null) {
            where.add("job " + alert.jobId());
        }
        if (alert.node() != null && !alert.node().isBlank()) {
            where.add("on " + alert.node());
        }
        return where.isEmpty() ? alert.title() : alert.title() + " [" + String.join(" ", where) + "]";
    }

    private List<String> linuxArgv(String title, String body) throws DeliverySkippedException {
        String notifySend = find("notify-send").orElseThrow(() -> new DeliverySkippedException(
                "notify-send is not on PATH, so desktop notifications are skipped; install it"
                        + " (libnotify) or set queue.notify.desktop: false"));
        // "--" ends the options: an alert title that starts with "-" is text, not an option.
        return List.of(notifySend, "--", title, body);
    }

    private List<String> macArgv(String title, String body) throws DeliverySkippedException {
        Optional<String> terminalNotifier = find("terminal-notifier");
        if (terminalNotifier.isPresent()) {
            return List.of(terminalNotifier.get(), "-title", title, "-message", body);
        }
        String osascript = find("osascript").orElseThrow(() -> new DeliverySkippedException(
                "neither terminal-notifier nor osascript is on PATH, so desktop notifications are"
                        + " skipped; set queue.notify.desktop: false"));
        return List.of(osascript, "-e",
                "display notification " + appleScriptString(body) + " with title " + appleScriptString(title));
    }

    /** An AppleScript string literal: backslash and double quote are the only characters to escape. */
    static String appleScriptString(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** The first executable called {@code name} in the PATH's directories, as a shell would pick it. */
    private Optional<String> find(String name) {
        for (String dir : path.split(File.pathSeparator)) {
            try {
                // An empty or relative entry means "from the current directory" to a shell; a
                // daemon should not run whatever notify-send happens to sit where it was started.
                if (dir.isEmpty() || !Path.of(dir).isAbsolute()) {
                    continue;
                }
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate.toString());
                }
            } catch (InvalidPathException skipped) {
                // A PATH entry that is no path cannot hold the program.
            }
        }
        return Optional.empty();
    }
}
