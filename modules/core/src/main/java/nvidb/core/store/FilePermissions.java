package nvidb.core.store;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The queue's files are the owner's alone (folders 0700, files 0600), except in a group-shared
 * folder — group-writable with the setgid bit, as {@code nvidb queue share} makes one — where a new
 * file is group read-write (0660) whatever the umask, so that every member's account can open the
 * queue. SQLite gives the {@code -wal} and {@code -shm} files the database file's mode.
 */
public final class FilePermissions {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private FilePermissions() {
    }

    public static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createPrivateDirectories(parent);
        }
        try {
            if (POSIX) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (java.nio.file.FileAlreadyExistsException raced) {
            // created meanwhile by another process
        }
    }

    public static void createQueueFile(Path file) throws IOException {
        if (!POSIX) {
            Files.createFile(file);
            return;
        }
        Path folder = file.toAbsolutePath().getParent();
        if (folder != null && groupShared(folder)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw----")));
            // The umask may have taken the group's bits at creation: set them as meant.
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
        } else {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
    }

    /** The setgid bit of a mode: files made in such a folder take its group. */
    public static final int SETGID = 02000;
    private static final int GROUP_WRITE = 0020;

    /** Whether {@code dir} is a group-shared folder: group-writable, with the setgid bit. */
    public static boolean groupShared(Path dir) {
        if (!POSIX) {
            return false;
        }
        try {
            int mode = (Integer) Files.getAttribute(dir, "unix:mode");
            return (mode & SETGID) != 0 && (mode & GROUP_WRITE) != 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
