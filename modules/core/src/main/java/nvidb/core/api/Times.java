package nvidb.core.api;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** Timestamps as the JSON contract has them: ISO-8601 UTC, seconds, {@code +00:00}. */
public final class Times {
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx");

    private Times() {
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    public static String iso(Instant instant) {
        return instant == null ? null : ISO.format(instant.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
    }

    /**
     * Reads a stored timestamp; one without an offset is UTC; garbage reads as null. What
     * {@link #iso} writes is read by {@link #plainInstant}: {@code java.time}'s parser cost 45-51 ms
     * more of a whole {@code nvidb job ls -n 0} over 3,000 jobs (bench/json-codec.sh). The
     * formatter in {@link #iso} stays: a hand-written one saved under 3 ms. TimesPropertyTest
     * checks the two readers agree.
     */
    public static Instant parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Instant plain = plainInstant(text);
        return plain != null ? plain : javaTime(text);
    }

    /** {@link #parse} with {@code java.time}'s parser alone. */
    static Instant javaTime(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException again) {
                return null;
            }
        }
    }

    /**
     * The form {@link #iso} writes, {@code 2026-01-02T03:04:05+00:00}, read without
     * {@code java.time}'s parser. Null for any other text or an impossible date, which
     * {@link #parse} then reads with it; where this returns an instant it is the one
     * {@code OffsetDateTime.parse} gives.
     */
    static Instant plainInstant(String text) {
        if (text.length() != 25 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || !text.endsWith("+00:00")) {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if (year < 1000 || month < 1 || month > 12 || day < 1 || (day > 28 && day > lengthOfMonth(year, month))
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600 + minute * 60 + second);
    }

    /** The decimal number in {@code text[from, from + count)}; -1 unless all of it is ASCII digits. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> Year.isLeap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** {@code 3s ago}, {@code 3m ago}, {@code 2h ago}, {@code 4d ago}, or {@code never}. */
    public static String age(Instant then, Instant now) {
        if (then == null) {
            return "never";
        }
        long s = Math.max(0, Duration.between(then, now).getSeconds());
        if (s < 60) {
            return s + "s ago";
        }
        if (s < 3600) {
            return (s / 60) + "m ago";
        }
        if (s < 86400) {
            return (s / 3600) + "h ago";
        }
        return (s / 86400) + "d ago";
    }

    /** {@code HH:MM:SS} or {@code D-HH:MM:SS}. */
    public static String duration(Double seconds) {
        if (seconds == null) {
            return "-";
        }
        long s = Math.max(0, Math.round(seconds));
        long d = s / 86400;
        String hms = String.format("%02d:%02d:%02d", (s % 86400) / 3600, (s % 3600) / 60, s % 60);
        return d > 0 ? d + "-" + hms : hms;
    }
}
