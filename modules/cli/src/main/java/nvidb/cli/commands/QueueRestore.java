package nvidb.cli.commands;

import java.nio.file.Path;
import nvidb.core.api.NvidbException;
import nvidb.core.view.BackupDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "restore", mixinStandardHelpOptions = true, description = {
        "Put a backup back in place of the queue's content.",
        "The snapshot is checked (an nvidb queue that passes PRAGMA quick_check, of a",
        "schema this nvidb knows), the current content is backed up first, then",
        "replaced in one transaction. Refused (exit 4) while a daemon or a pass holds",
        "the scheduler lease. Jobs submitted since the snapshot are not in it."})
public final class QueueRestore extends BaseCommand {
    @Parameters(index = "0", paramLabel = "PATH", description = "The backup to restore (only read).")
    String path;

    @Override
    protected int execute() {
        if (path.isBlank()) {
            throw NvidbException.usage("PATH is empty; name the backup file to restore");
        }
        BackupDocuments.Restored r = ctx().app().backups().restore(ctx().caller(), Path.of(path));
        if (json()) {
            out().document(r);
        } else {
            out().line("restored " + r.database() + " from " + r.restoredFrom() + "; what it held before is kept in "
                    + r.previous().path());
        }
        return 0;
    }
}
