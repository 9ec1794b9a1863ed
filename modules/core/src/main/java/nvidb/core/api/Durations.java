package nvidb.core.api;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spans of time as people write them: {@code 90} (seconds), {@code 90s}, {@code 30m}, {@code 12h},
 * {@code 7d}, {@code 2w}, or a decimal of any of those ({@code 1.5h}). The one parser for every
 * option and setting that takes a span ({@code queue usage --since}, {@code queue.fairshare_half_life}).
 */
public final class Durations {
    private static final Pattern SPAN = Pattern.compile("^\\s*([0-9]*\\.?[0-9]+)\\s*([a-zA-Z]*)\\s*$");

    private Durations() {
    }

    /** Whether {@code text} has the shape of a span (a number with an optional unit). */
    public static boolean looksLikeSpan(String text) {
        return text != null && SPAN.matcher(text).matches();
    }

    /** Parses a span; a usage error names the forms that work. */
    public static Duration parse(String text) {
        Matcher m = text == null ? null : SPAN.matcher(text);
        if (m == null || !m.matches()) {
            throw NvidbException.usage("invalid span of time '" + text + "' (try 90s, 30m, 12h, 7d or 2w)");
        }
        double factor = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "s", "sec", "secs", "second", "seconds" -> 1;
            case "m", "min", "mins", "minute", "minutes" -> 60;
            case "h", "hr", "hrs", "hour", "hours" -> 3600;
            case "d", "day", "days" -> 86400;
            case "w", "week", "weeks" -> 7 * 86400;
            default -> throw NvidbException.usage("unknown unit '" + m.group(2) + "' in '" + text.strip()
                    + "' (try s, m, h, d or w: 90s, 30m, 12h, 7d, 2w)");
        };
        double seconds = Double.parseDouble(m.group(1)) * factor;
        if (seconds > Long.MAX_VALUE / 1_000_000_000L) {
            throw NvidbException.usage("span of time '" + text.strip() + "' is too long");
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
