package nvidb.core.app;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.NvidbException;

/**
 * What {@code job note ID [TEXT…] [--append TEXT] [--clear]} asks, checked once for every front
 * end: read (nothing given), replace, append, or clear.
 *
 * @param text the new text (null: clear); unused when {@link #reads()}
 */
public record NoteChange(boolean reads, String text, boolean append) {
    public static NoteChange of(List<String> words, String append, boolean clear) {
        List<String> given = new ArrayList<>();
        if (!words.isEmpty()) {
            given.add("text");
        }
        if (append != null) {
            given.add("--append");
        }
        if (clear) {
            given.add("--clear");
        }
        if (given.size() > 1) {
            throw NvidbException.usage("pick one of text, --append, --clear (got " + String.join(", ", given) + ")");
        }
        if (append != null && append.isEmpty()) {
            throw NvidbException.usage("--append needs some text");
        }
        if (given.isEmpty()) {
            return new NoteChange(true, null, false);
        }
        return new NoteChange(false, clear ? null : append != null ? append : String.join(" ", words), append != null);
    }
}
