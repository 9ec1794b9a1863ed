package nvidb.core.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import nvidb.core.api.Backups;
import nvidb.core.api.Daemon;
import nvidb.core.api.NvidbException;
import nvidb.core.config.QueueSettings.BackupSettings;

/**
 * The daemon's backups: with {@code queue.backup.enabled}, one generated backup (rotated to
 * {@code queue.backup.keep}) whenever {@code interval_hours} have passed since the last backup of
 * any kind, so a manual {@code queue backup} also counts. A failure is noted in the daemon's log
 * and tried again ten minutes later; it never stops the passes.
 */
final class PeriodicBackup {
    static final Duration RETRY = Duration.ofMinutes(10);

    private Instant retryAfter = Instant.MIN;

    void takeIfDue(QueueService queue, Daemon.Listener listener) {
        BackupSettings settings = queue.config().settings().backup();
        Instant now = Instant.now();
        if (!settings.enabled() || now.isBefore(retryAfter)) {
            return;
        }
        Backups backups = queue.backups();
        Optional<Instant> last = backups.lastBackupAt();
        Duration every = Duration.ofSeconds(Math.round(settings.intervalHours() * 3600));
        if (last.isPresent() && Duration.between(last.get(), now).compareTo(every) < 0) {
            return;
        }
        try {
            Backups.Backup b = backups.take(Optional.empty(), OptionalInt.empty());
            listener.note("backup " + b.path() + " (" + b.bytes() + " bytes, " + b.tookMs() + " ms"
                    + (b.removed().isEmpty() ? "" : ", rotated out " + b.removed().size()) + ")");
        } catch (NvidbException e) {
            retryAfter = now.plus(RETRY);
            listener.note("periodic backup failed (tried again in " + RETRY.toMinutes() + " minutes): " + e.getMessage());
        }
    }
}
