package nvidb.core.daemon;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import nvidb.core.api.Backups;
import nvidb.core.api.NvidbException;
import nvidb.core.config.QueueSettings.BackupSettings;
import nvidb.core.queue.QueueService;

/**
 * The daemon's backups: with {@code queue.backup.enabled}, one generated backup (rotated to
 * {@code queue.backup.keep}) whenever {@code interval_hours} have passed since the last backup of
 * any kind, so a manual {@code queue backup} also counts; {@code interval_hours: 0} takes one after
 * every pass, as the reference does. A failure is reported with the pass and tried again ten
 * minutes later; it never stops the passes.
 */
final class PeriodicBackup {
    static final Duration RETRY = Duration.ofMinutes(10);

    /** What a pass's backup step did: a backup, a failure, or neither (none due). */
    record Outcome(Backups.Backup backup, String error) {
        static final Outcome NONE = new Outcome(null, null);
    }

    private Instant retryAfter = Instant.MIN;

    Outcome takeIfDue(QueueService queue) {
        BackupSettings settings = queue.config().settings().backup();
        Instant now = Instant.now();
        if (!settings.enabled() || now.isBefore(retryAfter)) {
            return Outcome.NONE;
        }
        Backups backups = queue.backups();
        Duration every = Duration.ofSeconds(Math.round(settings.intervalHours() * 3600));
        if (!every.isZero()) {
            Optional<Instant> last = backups.lastBackupAt();
            if (last.isPresent() && Duration.between(last.get(), now).compareTo(every) < 0) {
                return Outcome.NONE;
            }
        }
        try {
            return new Outcome(backups.take(Optional.empty(), OptionalInt.empty()), null);
        } catch (NvidbException e) {
            retryAfter = now.plus(RETRY);
            return new Outcome(null, e.getMessage());
        }
    }
}
