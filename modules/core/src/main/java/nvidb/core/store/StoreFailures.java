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
final class StoreFailures {
    /** SQLite's primary result codes (sqlite3.h). */
    private static final int IOERR = 10;
    private static final int READONLY = 8;
    private static final int CORRUPT = 11;
    private static final int FULL = 13;
    private static final int NOTADB = 26;

    /** Where a damaged database is first noticed, with no backup directory known: the general way out. */
    static final String RESTORE = "move it aside with its -wal and -shm files and put a backup back with"
            + " nvidb queue restore BACKUP (see README, Backups)";

    private StoreFailures() {
    }

    /**
     * @param db       the database file, or null where the caller does not know it
     * @param recovery what to do about a damaged database (names the newest backup where known)
     */
    static NvidbException of(Path db, String recovery, SQLException e) {
        String where = db == null ? "the queue database" : "queue database " + db;
        String words = String.valueOf(e.getMessage());
        String text = words.toUpperCase(Locale.ROOT);
        int code = e.getErrorCode() & 0xff;
        String message;
        if (code == READONLY || text.contains("SQLITE_READONLY")) {
            message = where + " is read-only for this user (" + System.getProperty("user.name")
                    + "): this command changes the queue, which needs write access to the file and its directory;"
                    + " commands that only read it work";
        } else if (code == FULL || text.contains("SQLITE_FULL")
                || (code == IOERR && text.contains("NO SPACE"))) {
            message = "no space left for " + where + " (" + free(db) + "): nothing of this command was written;"
                    + " free some space and run it again";
        } else if (code == CORRUPT || code == NOTADB || text.contains("SQLITE_CORRUPT") || text.contains("SQLITE_NOTADB")
                || text.contains("MALFORMED")) {
            message = where + " is damaged (SQLite: " + plain(words) + "); " + recovery;
        } else {
            message = where + ": " + words;
        }
        return new NvidbException(ErrorCode.FAILED, message, e);
    }

    /** Whether {@code e} is one this class words itself, and so needs no "could not open" in front. */
    static boolean worded(SQLException e) {
        int code = e.getErrorCode() & 0xff;
        return code == READONLY || code == FULL || code == CORRUPT || code == NOTADB;
    }

    /** SQLite's sentence without the driver's "[SQLITE_CORRUPT]" prefix and repetition. */
    private static String plain(String words) {
        int paren = words.lastIndexOf(" (");
        String inner = paren > 0 && words.endsWith(")") ? words.substring(paren + 2, words.length() - 1) : words;
        return inner.replaceFirst("^\\[[A-Z_]+\\]\\s*", "");
    }

    /** The free space on the filesystem that holds {@code db}, in words. */
    static String free(Path db) {
        if (db == null) {
            return "free space unknown";
        }
        Path at = db.toAbsolutePath();
        while (at != null && !Files.exists(at)) {
            at = at.getParent();
        }
        try {
            long bytes = Files.getFileStore(at).getUsableSpace();
            return String.format(Locale.ROOT, "%.1f MiB free on its filesystem", bytes / 1048576.0);
        } catch (IOException | RuntimeException e) {
            return "free space unknown";
        }
    }
}
