package nvidb.core.api;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Snapshots of the queue database: taking one while the queue keeps working (the command line,
 * and the daemon on {@code queue.backup.interval_hours}), and putting one back.
 */
public interface Backups {
    /**
     * One published backup.
     *
     * @param path       the file written; it did not exist before, and nothing else was replaced
     * @param source     the queue database it copies
     * @param createdAt  when the copy began: every write committed before then is in it
     * @param bytes      the file's size
     * @param tookMs     how long taking it took, copy, check and publishing included
     * @param quickCheck {@code PRAGMA quick_check} on the copy: always {@code ok} (else nothing is published)
     * @param removed    older generated backups rotation deleted, newest first
     */
    record Backup(Path path, Path source, Instant createdAt, long bytes, long tookMs, String quickCheck,
                  List<Path> removed) {
    }

    /**
     * A restore that happened.
     *
     * @param database      the queue database, now holding the snapshot's content
     * @param snapshot      the file restored from (left as it was)
     * @param schemaVersion the snapshot's schema version (older ones are migrated on the way in)
     * @param previous      the backup of what the database held just before
     */
    record Restore(Path database, Path snapshot, int schemaVersion, Backup previous) {
    }

    /**
     * Takes a backup with SQLite's online backup (writers are not paused), checks the copy with
     * {@code PRAGMA quick_check} and publishes it under a name that did not exist.
     *
     * @param target where: empty for a generated name in the backup directory
     *               ({@code queue.backup.directory}, default {@code $NVIDB_HOME/backups}); an
     *               existing directory for a generated name there; else the exact new file,
     *               whose directory must exist. An existing file is refused and left alone.
     * @param keep   how many generated backups to keep in the directory written to, the new one
     *               included (0: every one); empty: {@code queue.backup.keep} in the backup
     *               directory, and no rotation in a directory the caller named. A named file is
     *               never rotated.
     */
    Backup take(Optional<Path> target, OptionalInt keep);

    /**
     * Replaces the queue's content with a snapshot's, after checking the snapshot (an SQLite
     * database that passes {@code quick_check}, of a schema this nvidb knows) and backing up
     * the current content. Refused while something keeps the queue moving (a daemon, a keeper,
     * a pass in progress).
     */
    Restore restore(Path snapshot);

    /** When the last backup of this queue was taken, if one was. */
    Optional<Instant> lastBackupAt();

    /** The one rule for how many backups a rotation keeps, for {@code --keep} as for the configuration. */
    static int requireKeep(int keep) {
        if (keep < 0) {
            throw NvidbException.usage("--keep cannot be negative: N keeps the newest N generated backups, the new"
                    + " one included, and 0 keeps every one; not " + keep);
        }
        return keep;
    }
}
