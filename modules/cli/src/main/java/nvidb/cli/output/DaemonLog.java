package nvidb.cli.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * {@code $NVIDB_HOME/daemon.log}: one line per event of the daemon (start, stop, a pass that did
 * something, a configuration reloaded), each stamped with its UTC time. Rotated by size: past
 * {@link #MAX_BYTES} it becomes {@code daemon.log.1} (the older ones shift to .2 and .3, the
 * oldest goes), so the log never takes more than about 4 MiB. A line that cannot be written is
 * dropped: logging never stops the daemon.
 */
public final class DaemonLog {
    static final long MAX_BYTES = 1024 * 1024;
    static final int KEEP = 3;

    private final Path file;

    public DaemonLog(Path home) {
        this.file = home.resolve("daemon.log");
    }

    public Path file() {
        return file;
    }

    public synchronized void line(String text) {
        String stamped = Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + text.replace('\n', ' ') + "\n";
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file) && Files.size(file) + stamped.length() > MAX_BYTES) {
                rotate();
            }
            Files.writeString(file, stamped, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            // see the class comment
        }
    }

    private void rotate() throws IOException {
        for (int i = KEEP - 1; i >= 1; i--) {
            Path older = file.resolveSibling(file.getFileName() + "." + i);
            if (Files.exists(older)) {
                Files.move(older, file.resolveSibling(file.getFileName() + "." + (i + 1)),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.move(file, file.resolveSibling(file.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    }
}
