package nvidb.core.backup;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.Backups;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.QueueSettings;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.FilePermissions;
import nvidb.core.store.MetaRepository;
import nvidb.core.store.Snapshots;
import nvidb.core.store.Store;
import nvidb.core.store.StoreFailures;

/**
 * {@link Backups}: a copy is made into a temporary file beside its target, made to stand alone
 * and checked there, synced, and only then given its name, by a link that fails rather than
 * replace a file. So a backup file is complete whenever it exists, and no file that existed is
 * ever changed. A restore prepares its copy the same way beside the queue database and swaps the
 * content in through SQLite (see {@link Snapshots#restoreInto}).
 */
public final class BackupService implements Backups {
    private final ServiceContext context;
    private final NvidbPaths paths;

    public BackupService(ServiceContext context, NvidbPaths paths) {
        this.context = context;
        this.paths = paths;
    }

    private Store store() {
        return context.store();
    }

    Path directory() {
        return directory(paths, context.config());
    }

    /** Where generated backups go: {@code queue.backup.directory} (relative to NVIDB_HOME), else {@code backups/}. */
    public static Path directory(NvidbPaths paths, QueueConfig config) {
        String configured = config.settings().backup().directory();
        return paths.home().resolve(configured == null || configured.isBlank() ? "backups" : configured);
    }

    /**
     * What to do about a damaged queue database, with the newest generated backup named: the
     * error a user meets then says which file to restore.
     */
    public static String recovery(NvidbPaths paths, QueueConfig config) {
        Path dir = directory(paths, config);
        Optional<Path> newest = BackupFiles.newest(dir);
        return newest.map(b -> "the newest backup is " + b + ": move the damaged file aside with its -wal and -shm"
                        + " files, then run nvidb queue restore " + b)
                .orElse("there is no backup in " + dir + ": move the damaged file aside with its -wal and -shm files"
                        + " (a new, empty queue starts), or nvidb queue restore a backup kept elsewhere");
    }

    @Override
    public Backup take(Optional<Path> target, OptionalInt keep) {
        keep.ifPresent(Backups::requireKeep);
        return take(destination(target, keep), true);
    }

    /** Where one backup goes and what rotation follows it. */
    private record Destination(Path directory, Path file, int keep) {
        boolean generated() {
            return file == null;
        }
    }

    private Destination destination(Optional<Path> target, OptionalInt keep) {
        QueueSettings.BackupSettings settings = context.config().settings().backup();
        if (target.isEmpty()) {
            Path dir = directory();
            try {
                FilePermissions.createPrivateDirectories(dir);
            } catch (IOException e) {
                throw failed("could not create the backup directory " + dir + ": " + e.getMessage());
            }
            return new Destination(dir, null, keep.orElse(settings.keep()));
        }
        Path path = target.get().toAbsolutePath().normalize();
        if (Files.isDirectory(path)) {
            return new Destination(path, null, keep.orElse(0));
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            throw failed(isDatabase(path) ? path + " is the queue database itself; name a new file"
                    : "backup already exists: " + path + "; nvidb never replaces a file: name a new one, or pass a"
                    + " directory for a generated name");
        }
        if (keep.isPresent()) {
            throw NvidbException.usage("--keep rotates generated backups in a directory; " + path
                    + " names one file, which is never rotated: leave out --keep, or pass a directory");
        }
        Path dir = path.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw failed("directory " + dir + " does not exist; create it first, or leave out PATH for "
                    + directory());
        }
        return new Destination(dir, path, 0);
    }

    private boolean isDatabase(Path path) {
        try {
            return Files.exists(paths.database()) && Files.isSameFile(path, paths.database());
        } catch (IOException e) {
            return false;
        }
    }

    /** Copy, seal and check, sync, publish, record, rotate ({@code keep} 0: no rotation). */
    private Backup take(Destination to, boolean record) {
        long start = System.nanoTime();
        Instant createdAt = Instant.now();
        Path temp = null;
        try {
            temp = BackupFiles.newTemp(to.directory(), "backup");
            Snapshots.copy(store().db, temp);
            String check = Snapshots.seal(temp, createdAt);
            if (!"ok".equals(check)) {
                throw failed("the copy of " + paths.database() + " failed PRAGMA quick_check (" + check
                        + "); nothing was published. Run PRAGMA integrity_check on the queue database");
            }
            BackupFiles.fsync(temp);
            Path published;
            if (to.generated()) {
                published = BackupFiles.publishGenerated(temp, to.directory(), createdAt);
            } else {
                BackupFiles.publish(temp, to.file());
                published = to.file();
            }
            temp = null;
            if (record) {
                store().db.write(() -> {
                    store().meta.put(MetaRepository.LAST_BACKUP_AT, Times.iso(createdAt));
                    return null;
                });
            }
            List<Path> removed = to.generated() && to.keep() > 0
                    ? BackupFiles.rotate(to.directory(), to.keep(), published) : List.of();
            return new Backup(published, paths.database(), createdAt, Files.size(published),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), check, removed);
        } catch (FileAlreadyExistsException e) {
            throw failed("backup already exists: " + e.getFile() + "; it was created while this backup ran, and is"
                    + " left as it is");
        } catch (IOException e) {
            throw failed("could not write the backup in " + to.directory() + ": " + e.getMessage() + " ("
                    + StoreFailures.free(to.directory()) + "); nothing was published");
        } finally {
            deleteQuietly(temp);
        }
    }

    @Override
    public Restore restore(Path snapshot) {
        Path file = snapshot.toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            throw NvidbException.failed("could not restore the queue: " + file
                    + (Files.exists(file) ? " is not a regular file" : " does not exist"));
        }
        if (isDatabase(file)) {
            throw NvidbException.failed("could not restore the queue: " + file + " is the queue database itself");
        }
        refuseWhileRunning();
        Path keepDir = destination(Optional.empty(), OptionalInt.empty()).directory();
        Path prepared = null;
        try {
            prepared = BackupFiles.newTemp(paths.database().toAbsolutePath().getParent(), "restore");
            int version = prepare(file, prepared);
            Path ready = prepared;
            // The lease keeps passes out; the transaction of restoreInto keeps every other writer out
            // from the backup of the current content to the swap.
            return context.lease().run("restore", () -> {
                Backup previous = Snapshots.restoreInto(ready, store().db,
                        () -> take(new Destination(keepDir, null, 0), false));
                store().db.write(() -> {
                    store().meta.put(MetaRepository.LAST_BACKUP_AT, Times.iso(previous.createdAt()));
                    return null;
                });
                return new Restore(paths.database(), file, version, previous);
            });
        } catch (IOException e) {
            throw NvidbException.failed("could not restore the queue: " + e.getMessage());
        } finally {
            deleteQuietly(prepared);
        }
    }

    /**
     * Copies the snapshot beside the queue database and makes it what a restore swaps in: checked,
     * of a schema this nvidb knows, migrated to this nvidb's, holding no lease. The snapshot file
     * itself is only read.
     *
     * @return the snapshot's own schema version
     */
    private static int prepare(Path snapshot, Path prepared) {
        try {
            Snapshots.Inspection found = Snapshots.inspect(snapshot);
            if (!found.ok()) {
                throw NvidbException.failed(snapshot + " fails PRAGMA quick_check (" + found.quickCheck() + ")");
            }
            int latest = Snapshots.latestSchema();
            if (found.schemaVersion() > latest) {
                throw NvidbException.failed(snapshot + " has schema version " + found.schemaVersion()
                        + ", written by a newer nvidb; this nvidb knows versions up to " + latest
                        + ". Restore it with that nvidb");
            }
            Snapshots.copyFile(snapshot, prepared);
            Snapshots.migrate(prepared);
            String check = Snapshots.seal(prepared, null);
            if (!"ok".equals(check)) {
                throw NvidbException.failed("the copy of " + snapshot + " fails PRAGMA quick_check (" + check + ")");
            }
            return found.schemaVersion();
        } catch (NvidbException e) {
            throw new NvidbException(e.code(), "could not restore the queue: " + e.getMessage()
                    + "; the queue database was left unchanged", e);
        }
    }

    private void refuseWhileRunning() {
        QueueActivity.whatRuns(store(), paths, context.env()).ifPresent(what -> {
            throw NvidbException.conflict("could not restore the queue: " + what
                    + "; stop it, or let the pass end, and retry. The queue database was left unchanged");
        });
    }

    @Override
    public Optional<Instant> lastBackupAt() {
        return store().db.read(() -> store().meta.get(MetaRepository.LAST_BACKUP_AT).map(Times::parse));
    }

    private static NvidbException failed(String message) {
        return NvidbException.failed("could not back up the queue: " + message);
    }

    private static void deleteQuietly(Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
            for (String sqliteFile : List.of("-journal", "-wal", "-shm")) {
                Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + sqliteFile));
            }
        } catch (IOException e) {
            // a leftover temporary file is named so that nothing takes it for a backup
        }
    }
}
