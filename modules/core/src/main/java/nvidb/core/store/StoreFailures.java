package nvidb.core.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;

/**
 * What a failing SQLite call means to the user. The failures a queue host meets in a year — a
 * database the user may not write, a full disk, a damaged file — each get a sentence that says
 * what to do; anything else keeps SQLite's own words. Always exit 1 (a command that could not do
 * its work), with the SQLException as the cause.
 */
public final class StoreFailures {
    /** SQLite's primary result codes (sqlite3.h). */
    private static final int IOERR = 10;
    private static final int READONLY = 8;
    private static final int CORRUPT = 11;
    private static final int FULL = 13;
    private static final int NOTADB = 26;
    private static final int CANTOPEN = 14;
    /** Below this much free space an I/O error is taken for a full disk: SQLite needs a few pages at least. */
    private static final long LOW_SPACE = 1024 * 1024;

    /** Where a damaged database is first noticed, with no backup directory known: the general way out. */
    static final String RESTORE = "move it aside with its -wal and -shm files and put a backup back with"
            + " nvidb queue restore BACKUP (see docs/backups.md)";

    private StoreFailures() {
    }

    /**
     * @param db       the database file, or null where the caller does not know it
     * @param recovery what to do about a damaged database (names the newest backup where known)
     */
    static NvidbException of(Path db, String recovery, SQLException e) {
        String where = db == null ? "the queue database" : "queue database " + db;
        String message = worded(db, where, recovery, e);
        return new NvidbException(ErrorCode.FAILED, message != null ? message : where + ": " + e.getMessage(), e);
    }

    /** {@link #of} for a database that could not be opened: SQLite's own words get that said in front. */
    static NvidbException opening(Path db, String recovery, SQLException e) {
        String message = worded(db, "queue database " + db, recovery, e);
        return new NvidbException(ErrorCode.FAILED, message != null ? message
                : "could not open the queue database " + db + ": " + e.getMessage(), e);
    }

    /** The sentence for a failure with a remedy, or null for any other. */
    private static String worded(Path db, String where, String recovery, SQLException e) {
        String words = String.valueOf(e.getMessage());
        String text = words.toUpperCase(Locale.ROOT);
        int code = e.getErrorCode() & 0xff;
        String message = null;
        if (code == READONLY || text.contains("SQLITE_READONLY")) {
            message = where + " is read-only for this user (" + System.getProperty("user.name")
                    + "): this command changes the queue, which needs write access to the file and its directory;"
                    + " commands that only read it work";
        } else if (code == FULL || text.contains("SQLITE_FULL")
                || ((code == IOERR || code == CANTOPEN || text.contains("SQLITE_IOERR")) && usable(db) < LOW_SPACE)) {
            // A full disk often shows as an I/O error: growing the -shm index, creating the WAL.
            message = "no space left for " + where + " (" + free(db) + "): nothing of this command was written;"
                    + " free some space and run it again";
        } else if (code == CORRUPT || code == NOTADB || text.contains("SQLITE_CORRUPT") || text.contains("SQLITE_NOTADB")
                || text.contains("MALFORMED")) {
            message = where + " is damaged (SQLite: " + plain(words) + "); " + recovery;
        }
        return message;
    }

    /** SQLite's sentence without the driver's "[SQLITE_CORRUPT]" prefix and repetition. */
    private static String plain(String words) {
        int paren = words.lastIndexOf(" (");
        String inner = paren > 0 && words.endsWith(")") ? words.substring(paren + 2, words.length() - 1) : words;
        return inner.replaceFirst("^\\[[A-Z_]+\\]\\s*", "");
    }

    /** The free space on the filesystem that holds {@code db} (a backup's directory too), in words. */
    public static String free(Path db) {
        long bytes = usable(db);
        return bytes == Long.MAX_VALUE ? "free space unknown"
                : String.format(Locale.ROOT, "%.1f MiB free on its filesystem", bytes / 1048576.0);
    }

    /** Bytes free to this user where {@code file} is (or would be); Long.MAX_VALUE where unknown. */
    static long usable(Path file) {
        if (file == null) {
            return Long.MAX_VALUE;
        }
        Path at = file.toAbsolutePath();
        while (at != null && !Files.exists(at)) {
            at = at.getParent();
        }
        try {
            return at == null ? Long.MAX_VALUE : Files.getFileStore(at).getUsableSpace();
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
    }
}
