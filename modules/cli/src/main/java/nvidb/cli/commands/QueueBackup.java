package nvidb.cli.commands;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import nvidb.core.api.NvidbException;
import nvidb.core.view.BackupDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "backup", mixinStandardHelpOptions = true, description = {
        "Snapshot the queue database while the queue keeps working.",
        "SQLite's online backup (writers are not paused), checked with PRAGMA",
        "quick_check, published under a name that did not exist: an existing file is",
        "never replaced. Without PATH: queue-<UTC time>.db in $NVIDB_HOME/backups (or",
        "queue.backup.directory), keeping the newest queue.backup.keep generated ones.",
        "--json: {ok, backup: {path, source, created_at, bytes, verified, pruned, took_ms, quick_check}}."})
public final class QueueBackup extends BaseCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH",
            description = "A new file to write, or a directory for a generated name in it.")
    String path;

    @Option(names = "--keep", paramLabel = "N", description = "Keep the newest N generated backups in the directory"
            + " written to, the new one included (0: every one; default queue.backup.keep in the backup directory, no"
            + " rotation in a directory you name).")
    Integer keep;

    @Override
    protected int execute() {
        if (path != null && path.isBlank()) {
            throw NvidbException.usage("PATH is empty; name a new file or a directory, or leave PATH out");
        }
        BackupDocuments.Backed backed = ctx().app().backups().backup(ctx().caller(),
                Optional.ofNullable(path).map(Path::of), keep == null ? OptionalInt.empty() : OptionalInt.of(keep));
        BackupDocuments.BackupView b = backed.backup();
        if (json()) {
            out().document(backed);
        } else {
            out().line("backed up " + b.source() + " to " + b.path() + " (" + b.bytes() + " bytes, quick_check "
                    + b.quickCheck() + ", " + b.tookMs() + " ms"
                    + (b.pruned().isEmpty() ? "" : "; removed " + b.pruned().size() + " older backup(s)") + ")");
        }
        return 0;
    }
}
