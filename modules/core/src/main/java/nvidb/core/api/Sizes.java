package nvidb.core.api;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.core.api.NvidbException;

/** Memory sizes: parsing {@code 20G}, {@code 512M}, {@code 20480} to MiB, and printing MiB. */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("^\\s*([0-9]*\\.?[0-9]+)\\s*([a-zA-Z]*)\\s*$");

    private Sizes() {
    }

    /** Parses a size to MiB; blank means 0. Rounds half to even, as the reference does. */
    public static long parseMb(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw NvidbException.usage("invalid size '" + text + "' (try 20G, 512M, or 20480)");
        }
        long factor = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "m", "mb", "mib" -> 1L;
            case "g", "gb", "gib" -> 1024L;
            case "t", "tb", "tib" -> 1024L * 1024L;
            default -> throw NvidbException.usage("unknown size unit '" + m.group(2) + "' in '" + text
                    + "' (use M, G or T, e.g. 20G)");
        };
        try {
            return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(factor))
                    .setScale(0, RoundingMode.HALF_EVEN).longValueExact();
        } catch (ArithmeticException tooLarge) {
            throw NvidbException.usage("size '" + text + "' is too large");
        }
    }

    /** {@code 512M}, {@code 20.0G}, {@code 141G}; null as {@code -}. */
    public static String format(Long mb) {
        if (mb == null) {
            return "-";
        }
        if (mb < 1024) {
            return mb + "M";
        }
        double gib = mb / 1024.0;
        if (gib >= 100) {
            return Math.round(gib) + "G";
        }
        return String.format(Locale.ROOT, "%.1fG", gib);
    }
}
