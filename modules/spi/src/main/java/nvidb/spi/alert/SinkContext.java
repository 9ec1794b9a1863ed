package nvidb.spi.alert;

import java.nio.file.Path;
import java.util.Objects;

/** Where the queue lives, for sinks that write files next to it. */
public record SinkContext(Path nvidbHome) {
    public SinkContext {
        Objects.requireNonNull(nvidbHome, "nvidbHome");
    }
}
