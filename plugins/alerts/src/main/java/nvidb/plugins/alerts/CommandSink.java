package nvidb.plugins.alerts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;

/**
 * Runs the configured command with {@code sh -c}, the alert's JSON on stdin (no trailing newline,
 * as the reference sends it). A command that fails or hangs makes the delivery fail, so core retries
 * it later instead of counting an alert nobody received as delivered.
 */
final class CommandSink implements AlertSink {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String command;
    private final Duration timeout;

    CommandSink(String command) {
        this(command, TIMEOUT);
    }

    /** For tests, which cannot wait the real timeout out. */
    CommandSink(String command, Duration timeout) {
        this.command = Objects.requireNonNull(command, "command");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public void deliver(AlertMessage alert) throws IOException, InterruptedException {
        Objects.requireNonNull(alert, "alert");
        ChildProcess.Outcome outcome = ChildProcess.run(List.of("sh", "-c", command),
                alert.json().getBytes(StandardCharsets.UTF_8), timeout);
        if (!outcome.ok()) {
            throw new IOException(outcome.failure("alert command", timeout));
        }
    }
}
