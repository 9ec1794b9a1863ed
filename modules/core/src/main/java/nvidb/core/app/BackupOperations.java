package nvidb.core.app;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import nvidb.core.api.Backups;
import nvidb.core.api.Caller;
import nvidb.core.view.BackupDocuments;

/** {@code queue backup} and {@code queue restore}, each with the {@link Caller} who asks bound. */
public final class BackupOperations {
    private final Application app;

    BackupOperations(Application app) {
        this.app = app;
    }

    /**
     * {@code queue backup [PATH]}: a checked snapshot of the database while the queue works, to
     * {@code target} (a new file, or a directory for a generated name) or the backup directory,
     * keeping the newest {@code keep} generated ones there.
     */
    public BackupDocuments.Backed backup(Caller caller, Optional<Path> target, OptionalInt keep) {
        Backups.Backup b = Application.as(caller, () -> app.queue().backups().take(target, keep));
        return new BackupDocuments.Backed(true, BackupDocuments.BackupView.of(b));
    }

    /** {@code queue restore PATH}: the snapshot put in place of the queue's content, what it held kept in a backup. */
    public BackupDocuments.Restored restore(Caller caller, Path snapshot) {
        return BackupDocuments.Restored.of(Application.as(caller, () -> app.queue().backups().restore(snapshot)));
    }
}
