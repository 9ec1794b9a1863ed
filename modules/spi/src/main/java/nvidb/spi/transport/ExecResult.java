package nvidb.spi.transport;

import java.util.Objects;

/** What a script printed and how it exited. */
public record ExecResult(int exitCode, String stdout, String stderr) {
    public ExecResult {
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
    }

    public boolean ok() {
        return exitCode == 0;
    }
}
