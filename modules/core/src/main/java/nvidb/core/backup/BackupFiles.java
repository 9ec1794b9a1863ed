package nvidb.core.backup;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.core.store.FilePermissions;

/**
 * The file side of backups: generated names, temporary files beside the target, publishing
 * without ever replacing a file, and rotation that touches only names nvidb generates.
 */
final class BackupFiles {
    /** {@code queue-20261202T100813.686774Z.db}, with {@code -1}, {@code -2} … on a collision. */
    private static final Pattern GENERATED = Pattern.compile("queue-(\\d{8}T\\d{6}\\.\\d{6}Z)(?:-([1-9]\\d{0,5}))?\\.db");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final int MAX_COLLISIONS = 1000;

    private BackupFiles() {
    }

    /** The generated name for a backup begun at {@code at}; {@code n > 0} is the n-th collision. */
    static String generatedName(Instant at, int n) {
        return "queue-" + STAMP.format(at) + (n == 0 ? "" : "-" + n) + ".db";
    }

    static boolean isGenerated(Path file) {
        return GENERATED.matcher(file.getFileName().toString()).matches();
    }

    /** A new, empty, owner-only file in {@code dir}, named so that nothing takes it for a backup. */
    static Path newTemp(Path dir, String purpose) throws IOException {
        Path temp = dir.resolve(".nvidb-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 13) + ".tmp");
        FilePermissions.createQueueFile(temp);
        return temp;
    }

    /** Forces a file's content to the disk. */
    static void fsync(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Forces a directory's entries to the disk (a new name survives a power cut); best effort where unsupported. */
    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some file systems cannot open or sync a directory; the file itself was synced
        }
    }

    /**
     * Gives {@code temp} the name {@code target} without replacing anything: a hard link, which
     * fails when the name exists (a rename would silently replace it, ATOMIC_MOVE included), then
     * the temporary name is removed. Where the file system has no hard links, a move without
     * REPLACE_EXISTING, which checks for the name just before renaming.
     *
     * @throws FileAlreadyExistsException when {@code target} exists; {@code temp} is then left in place
     */
    static void publish(Path temp, Path target) throws IOException {
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (UnsupportedOperationException | FileSystemException e) {
            Files.move(temp, target);
            fsyncDirectory(target.toAbsolutePath().getParent());
            return;
        }
        Files.delete(temp);
        fsyncDirectory(target.toAbsolutePath().getParent());
    }

    /** Publishes under the generated name for {@code at} in {@code dir}, the next free suffix on a collision. */
    static Path publishGenerated(Path temp, Path dir, Instant at) throws IOException {
        for (int n = 0; ; n++) {
            Path target = dir.resolve(generatedName(at, n));
            try {
                publish(temp, target);
                return target;
            } catch (FileAlreadyExistsException e) {
                if (n >= MAX_COLLISIONS) {
                    throw e;
                }
            }
        }
    }

    /**
     * Deletes the oldest generated backups in {@code dir} until {@code keep} remain, {@code fresh}
     * (the one just written) always among them. Only regular files with a generated name are
     * counted: a file the user named, a link or anything else is never touched. A file that cannot
     * be deleted is left and not reported as removed.
     *
     * @return the files removed, newest first
     */
    static List<Path> rotate(Path dir, int keep, Path fresh) throws IOException {
        List<Path> older = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (isGenerated(p) && !p.getFileName().equals(fresh.getFileName())
                        && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    older.add(p);
                }
            }
        }
        // Newest first by the moment in the name (an mtime can be changed by a copy); a collision
        // suffix is later than the plain name of the same microsecond.
        older.sort(Comparator.comparing(BackupFiles::stamp).thenComparingInt(BackupFiles::suffix).reversed());
        List<Path> removed = new ArrayList<>();
        for (Path p : older.subList(Math.min(older.size(), keep - 1), older.size())) {
            try {
                Files.delete(p);
                removed.add(p);
            } catch (IOException e) {
                // left for the next rotation; the backup itself is written
            }
        }
        return removed;
    }

    /** The newest generated backup in {@code dir}, if it holds one (and can be listed). */
    static java.util.Optional<Path> newest(Path dir) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (isGenerated(p) && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    found.add(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
        return found.stream().max(Comparator.comparing(BackupFiles::stamp).thenComparingInt(BackupFiles::suffix));
    }

    private static String stamp(Path p) {
        Matcher m = GENERATED.matcher(p.getFileName().toString());
        return m.matches() ? m.group(1) : "";
    }

    private static int suffix(Path p) {
        Matcher m = GENERATED.matcher(p.getFileName().toString());
        return m.matches() && m.group(2) != null ? Integer.parseInt(m.group(2)) : 0;
    }
}
