package nvidb.core.api;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
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

    /** Reads a stored timestamp; one without an offset is UTC; garbage reads as null. */
    public static Instant parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return java.time.LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException again) {
                return null;
            }
        }
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
