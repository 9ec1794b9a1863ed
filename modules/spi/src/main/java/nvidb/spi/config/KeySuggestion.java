package nvidb.spi.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * The known key an unknown one was most likely meant to be: a typo ({@code sevrers}, {@code
 * identityfle}) or a key cut short or run on ({@code gpu_id} for {@code gpu_ids}). Nothing when
 * no key is near, so a suggestion is never a guess.
 */
final class KeySuggestion {
    /** Edits allowed: two for a word of four letters or more, one for shorter ones. */
    private static final int MAX_EDITS = 2;

    private KeySuggestion() {
    }

    static Optional<String> nearest(String written, Collection<String> known) {
        String w = written.toLowerCase(Locale.ROOT);
        int allowed = w.length() < 4 ? 1 : MAX_EDITS;
        Optional<String> close = known.stream()
                .filter(k -> distance(w, k.toLowerCase(Locale.ROOT)) <= allowed)
                .min(Comparator.<String>comparingInt(k -> distance(w, k.toLowerCase(Locale.ROOT)))
                        .thenComparing(Comparator.naturalOrder()));
        if (close.isPresent() || w.length() < 3) {
            return close;
        }
        // A key cut short or run on: the shortest known key that begins with it, or that it begins with.
        return known.stream()
                .filter(k -> k.length() >= 3)
                .filter(k -> k.toLowerCase(Locale.ROOT).startsWith(w) || w.startsWith(k.toLowerCase(Locale.ROOT)))
                .min(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
    }

    /** Edits (insert, delete, replace, swap two neighbours) that turn {@code a} into {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
