package nvidb.core.util;

/** Shortening text for one-line messages and stored output tails. */
public final class Texts {
    private Texts() {
    }

    /** At most {@code n} characters, the last one an ellipsis when something was cut; null stays null. */
    public static String truncate(String s, int n) {
        if (s == null) {
            return null;
        }
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    /** The last {@code n} characters. */
    public static String lastChars(String s, int n) {
        return s.length() <= n ? s : s.substring(s.length() - n);
    }
}
