package nvidb.plugins.alerts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import nvidb.spi.alert.AlertMessage;
import nvidb.spi.alert.AlertSink;

/**
 * Appends each alert as one JSON line. Several processes may append at once (a daemon and a
 * {@code queue tick} run by hand), so every line is written under an exclusive lock on the file,
 * through a channel in append mode: a line is never interleaved with another or written over.
 */
final class LogSink implements AlertSink {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<StandardOpenOption> APPEND =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);

    /**
     * A file lock belongs to the whole JVM: a second channel of this process asking for it throws
     * instead of waiting. Appenders in this process therefore queue on a lock of their own first.
     */
    private static final ConcurrentMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private final Path file;

    LogSink(Path file) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath().normalize();
    }

    @Override
    public void deliver(AlertMessage alert) throws IOException {
        Objects.requireNonNull(alert, "alert");
        ByteBuffer line = StandardCharsets.UTF_8.encode(oneLine(alert.json()) + "\n");
        createPrivateDirectories(file.getParent());

        ReentrantLock inProcess = IN_PROCESS.computeIfAbsent(file, f -> new ReentrantLock());
        inProcess.lock();
        try (FileChannel channel = FileChannel.open(file, APPEND, ownerOnly("rw-------"))) {
            FileLock acrossProcesses = channel.lock();
            try {
                while (line.hasRemaining()) {
                    channel.write(line);
                }
            } finally {
                acrossProcesses.release();
            }
        } finally {
            inProcess.unlock();
        }
    }

    /**
     * One alert must be one line. Valid JSON has raw line breaks only as whitespace between tokens
     * (inside strings they are escaped), so replacing them with spaces keeps the document the same.
     */
    static String oneLine(String json) {
        return json.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }

    private static void createPrivateDirectories(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir)) {
            return;
        }
        createPrivateDirectories(dir.getParent());
        try {
            Files.createDirectory(dir, ownerOnly("rwx------"));
        } catch (FileAlreadyExistsException raced) {
            // Another appender created it meanwhile; a plain file in its place fails at open below.
        }
    }

    private static FileAttribute<?>[] ownerOnly(String permissions) {
        return POSIX
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))}
                : new FileAttribute<?>[0];
    }
}
