package nvidb.core.api;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * POSIX shell quoting. Everything nvidb puts into a script for a node goes through here, so no
 * value can leave its argument whatever it holds ({@code $(…)}, backticks, quotes, newlines).
 */
public final class ShellQuote {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellQuote() {
    }

    public static String quote(String value) {
        if (value.isEmpty()) {
            return "''";
        }
        if (SAFE.matcher(value).matches()) {
            return value;
        }
        return "'" + value.replace("'", "'\"'\"'") + "'";
    }

    /** Joins words into one command line that a shell splits back into the same words. */
    public static String join(List<String> words) {
        return words.stream().map(ShellQuote::quote).collect(Collectors.joining(" "));
    }
}
