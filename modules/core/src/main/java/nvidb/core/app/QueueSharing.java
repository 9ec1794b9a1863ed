package nvidb.core.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.NvidbException;
import nvidb.core.store.FilePermissions;

/**
 * {@code nvidb queue share}: makes the queue database's folder a group-shared one (the group's,
 * mode 2770: group-writable, setgid), and any queue files already there the group's and group
 * read-write, so that every member's account opens the one queue. nvidb then makes every new
 * queue file there group read-write whatever the umask ({@link FilePermissions}).
 */
public final class QueueSharing {
    /** What was made shared, and the line each member puts in their shell's profile. */
    public record Shared(boolean ok, String folder, String database, String group, String mode, List<String> files,
                         String memberSetup) {
    }

    private static final String FOLDER_MODE = "2770";
    private static final String FILE_PERMISSIONS = "rw-rw----";

    private QueueSharing() {
    }

    public static Shared share(Path database, String group) {
        if (group == null || group.isBlank()) {
            throw NvidbException.usage("--group names the Unix group of the queue's members, such as --group lab");
        }
        Path db = database.toAbsolutePath().normalize();
        Path folder = db.getParent();
        try {
            GroupPrincipal principal;
            try {
                principal = folder.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
            } catch (UserPrincipalNotFoundException e) {
                throw NvidbException.usage("no Unix group '" + group + "': create it first (groupadd " + group
                        + ") and add each member to it (usermod -aG " + group + " NAME)");
            }
            Files.createDirectories(folder);
            Files.getFileAttributeView(folder, PosixFileAttributeView.class).setGroup(principal);
            chmod(FOLDER_MODE, folder);
            List<String> files = new ArrayList<>();
            for (String suffix : List.of("", "-wal", "-shm")) {
                Path f = Path.of(db + suffix);
                if (Files.exists(f)) {
                    Files.getFileAttributeView(f, PosixFileAttributeView.class).setGroup(principal);
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(FILE_PERMISSIONS));
                    files.add(f.toString());
                }
            }
            if (!FilePermissions.groupShared(folder)) {
                throw NvidbException.failed(folder + " did not become group-shared (mode " + FOLDER_MODE + "); is it on a"
                        + " filesystem without Unix permissions?");
            }
            return new Shared(true, folder.toString(), db.toString(), group, FOLDER_MODE, files,
                    "export NVIDB_QUEUE_DB=" + db);
        } catch (IOException e) {
            throw NvidbException.failed("could not share " + folder + " with group " + group + ": " + e.getMessage()
                    + " (run it as the folder's owner, or as root, and be a member of " + group + ")");
        }
    }

    /** chmod(1): the JDK sets no setgid bit. */
    private static void chmod(String mode, Path path) throws IOException {
        try {
            Process p = new ProcessBuilder("chmod", mode, path.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0) {
                throw new IOException("chmod " + mode + ": " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw NvidbException.interrupted();
        }
    }
}
