package nvidb.tui.model;

import java.time.Instant;

/** The status line: the outcome of the last action, a hint, or an error. */
public record Status(String text, boolean error, Instant at) {
    public static final Status NONE = new Status("", false, null);

    public static Status info(String text, Instant at) {
        return new Status(text, false, at);
    }

    public static Status error(String text, Instant at) {
        return new Status(text, true, at);
    }
}
