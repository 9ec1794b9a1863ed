package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.nio.file.Path;
import java.util.List;
import nvidb.core.api.Backups;
import nvidb.core.api.Daemon;
import nvidb.core.api.Times;

/** The documents of {@code queue backup}, {@code queue restore} and a {@code queue daemon} pass. */
public final class BackupDocuments {
    private BackupDocuments() {
    }

    /** One backup: where, of what, when, how big, how long, its check, what rotation removed. */
    public record BackupView(String path, String source, String createdAt, long bytes, long tookMs, String quickCheck,
                             List<String> removed) {
        public static BackupView of(Backups.Backup b) {
            return new BackupView(b.path().toString(), b.source().toString(), Times.iso(b.createdAt()), b.bytes(),
                    b.tookMs(), b.quickCheck(), b.removed().stream().map(Path::toString).toList());
        }
    }

    /** {@code queue backup}. */
    public record Backed(boolean ok, @JsonUnwrapped BackupView backup) {
    }

    /** {@code queue restore}: {@code previous} is the backup of what the database held before. */
    public record Restored(boolean ok, String database, String restoredFrom, int schemaVersion, BackupView previous) {
        public static Restored of(Backups.Restore r) {
            return new Restored(true, r.database().toString(), r.snapshot().toString(), r.schemaVersion(),
                    BackupView.of(r.previous()));
        }
    }

    /** One daemon pass. */
    public record Pass(String at, String wokenBy, long durationMs, TickView tick) {
        public static Pass of(Daemon.Pass p) {
            return new Pass(Times.iso(p.at()), p.wokenBy().label(), p.durationMs(), TickView.of(p.tick()));
        }
    }
}
