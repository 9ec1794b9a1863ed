package nvidb.core.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.HealthCheck;
import nvidb.core.store.FilePermissions;

/**
 * {@code doctor}'s check of a shared queue: when the database's folder is group-shared ({@code nvidb
 * queue share}), each queue file there must be that group's and group read-write, or another
 * member's nvidb cannot open it. A private folder is no shared queue: no check.
 */
final class SharedFolderCheck {
    private SharedFolderCheck() {
    }

    static Optional<HealthCheck> of(Path database) {
        Path db = database.toAbsolutePath();
        Path folder = db.getParent();
        if (folder == null || !FilePermissions.groupShared(folder)) {
            return Optional.empty();
        }
        try {
            String group = Files.getAttribute(folder, "posix:group").toString();
            List<String> wrong = new ArrayList<>();
            for (String end : List.of("", "-wal", "-shm")) {
                Path f = Path.of(db + end);
                if (!Files.exists(f)) {
                    continue;
                }
                Set<PosixFilePermission> p = Files.getPosixFilePermissions(f);
                String fileGroup = Files.getAttribute(f, "posix:group").toString();
                if (!fileGroup.equals(group) || !p.contains(PosixFilePermission.GROUP_READ)
                        || !p.contains(PosixFilePermission.GROUP_WRITE)) {
                    wrong.add(f.getFileName() + " (group " + fileGroup + ", " + java.nio.file.attribute.PosixFilePermissions
                            .toString(p) + ")");
                }
            }
            if (!wrong.isEmpty()) {
                return Optional.of(HealthCheck.fail("shared queue", folder + " is shared with group " + group
                        + ", but other members cannot use " + String.join(", ", wrong),
                        "nvidb queue share --group " + group + " (as the folder's owner, or root)"));
            }
            return Optional.of(HealthCheck.pass("shared queue", folder + " is shared with group " + group
                    + " (setgid, group-writable); its queue files are the group's, read-write"));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of(HealthCheck.warn("shared queue", "could not read the permissions of " + folder + ": "
                    + e.getMessage(), "check it with ls -l " + folder));
        }
    }
}
