package nvidb.core.view;

import java.nio.file.Path;
import java.util.List;
import nvidb.core.api.Backups;
import nvidb.core.api.Daemon;
import nvidb.core.api.Times;

/** The documents of {@code queue backup}, {@code queue restore} and a {@code queue daemon} pass. */
public final class BackupDocuments {
    private BackupDocuments() {
    }

    /**
     * The reference's BackupInfo {@code {path, source, created_at, bytes, verified, pruned}}, with
     * {@code took_ms} and {@code quick_check} beside. {@code verified} is always true: a copy that
     * fails {@code quick_check} is never published.
     */
    public record BackupView(String path, String source, String createdAt, long bytes, boolean verified,
                             List<String> pruned, long tookMs, String quickCheck) {
        public static BackupView of(Backups.Backup b) {
            return b == null ? null : new BackupView(b.path().toString(), b.source().toString(), Times.iso(b.createdAt()),
                    b.bytes(), "ok".equals(b.quickCheck()), b.removed().stream().map(Path::toString).toList(), b.tookMs(),
                    b.quickCheck());
        }
    }

    /** {@code queue backup}. */
    public record Backed(boolean ok, BackupView backup) {
    }

    /** {@code queue restore}: {@code previous} is the backup of what the database held before. */
    public record Restored(boolean ok, String database, String restoredFrom, int schemaVersion, BackupView previous) {
        public static Restored of(Backups.Restore r) {
            return new Restored(true, r.database().toString(), r.snapshot().toString(), r.schemaVersion(),
                    BackupView.of(r.previous()));
        }
    }

    /**
     * One daemon pass: {@code at}, {@code woken_by}, {@code duration_ms}, and the reference's
     * {@code {tick, notified, backup, backup_error}} (alerts delivered in the pass; the periodic
     * backup it took, or null; why that failed, or null).
     */
    public record Pass(String at, String wokenBy, long durationMs, TickView tick, int notified, BackupView backup,
                       String backupError) {
        public static Pass of(Daemon.Pass p) {
            return new Pass(Times.iso(p.at()), p.wokenBy().label(), p.durationMs(), TickView.of(p.tick()),
                    p.tick().notified(), BackupView.of(p.backup()), p.backupError());
        }
    }
}
