package nvidb.tui.view;

import java.time.Duration;
import java.time.Instant;

/**
 * Text for a terminal: widths in cells (East Asian wide characters take two), cutting to a
 * width with a mark, padding, compact ages, and making text from elsewhere (job names, logs,
 * notes) safe to print: control characters are replaced, so no job can move the cursor or
 * change the terminal's state.
 */
public final class Text {
    private static volatile String ellipsis = "…";

    private Text() {
    }

    /** The truncation mark: {@code …} where the terminal speaks UTF-8, else {@code ~}. */
    public static void unicode(boolean on) {
        ellipsis = on ? "…" : "~";
    }

    public static int width(String s) {
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            w += cellsOf(cp);
            i += Character.charCount(cp);
        }
        return w;
    }

    private static int cellsOf(int cp) {
        if (Character.getType(cp) == Character.NON_SPACING_MARK || Character.getType(cp) == Character.ENCLOSING_MARK) {
            return 0;
        }
        boolean wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
                || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
                || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F)
                || (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
        return wide ? 2 : 1;
    }

    /** At most {@code max} cells of {@code s}; a cut ends in the truncation mark. */
    public static String cut(String s, int max) {
        if (max <= 0) {
            return "";
        }
        if (width(s) <= max) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int c = cellsOf(cp);
            if (w + c > max - 1) {
                break;
            }
            b.appendCodePoint(cp);
            w += c;
            i += Character.charCount(cp);
        }
        return b.append(ellipsis).toString();
    }

    /** {@code s} cut or padded with blanks to exactly {@code cells}. */
    public static String fit(String s, int cells) {
        String c = cut(s, cells);
        return c + " ".repeat(Math.max(0, cells - width(c)));
    }

    /** {@code s} padded on the left to {@code cells} (numbers). */
    public static String right(String s, int cells) {
        String c = cut(s, cells);
        return " ".repeat(Math.max(0, cells - width(c))) + c;
    }

    /**
     * One line of foreign text made printable: what a carriage return overwrote is dropped (a
     * progress bar's last state stays), tabs become blanks, other control characters {@code ?}.
     */
    public static String clean(String s) {
        if (s == null) {
            return "";
        }
        int cr = s.lastIndexOf('\r', s.length() - 2);
        String line = cr >= 0 ? s.substring(cr + 1) : s;
        StringBuilder b = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\t') {
                b.append("    ");
            } else if (c == '\r' || c == '\n') {
                b.append(' ');
            } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                b.append('?');
            } else {
                b.append(c);
            }
        }
        return b.toString().stripTrailing();
    }

    /** A short age: {@code 45s}, {@code 12m}, {@code 3h05m}, {@code 2d03h}; {@code -} without a time. */
    public static String age(Instant then, Instant now) {
        if (then == null || now == null) {
            return "-";
        }
        long s = Math.max(0, Duration.between(then, now).toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m";
        }
        if (s < 86400) {
            return String.format("%dh%02dm", s / 3600, s % 3600 / 60);
        }
        return String.format("%dd%02dh", s / 86400, s % 86400 / 3600);
    }
}
