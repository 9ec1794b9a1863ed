package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Times#parse} reads the form {@link Times#iso} writes without {@code java.time}'s parser;
 * here it is checked against that parser on random timestamps and on texts one slip away from
 * them (a wrong digit, a day the month lacks, a leap day, hour 24, second 60, another offset, a
 * letter, a missing or extra character).
 */
class TimesPropertyTest {
    private static final String SLIPS = "0123456789-:T+Z .a\u0663";

    @Test
    void parseReadsWhatJavaTimeReads() {
        Random random = new Random(20_261_203L);
        for (int i = 0; i < 50_000; i++) {
            // Years 1 to 12,000 (from 10,000 on, iso writes a sign), leap days and month ends included.
            long second = Math.floorMod(random.nextLong(), 378_000_000_000L) - 62_135_596_800L;
            Instant t = Instant.ofEpochSecond(second);
            String iso = Times.iso(t);
            assertEquals(t, Times.parse(iso), iso);
            String text = slip(random, iso);
            assertEquals(Times.javaTime(text), Times.parse(text), text);
        }
    }

    @Test
    void impossibleDatesAndTimesReadAsJavaTimeReadsThem() {
        for (String text : new String[] {"2025-02-29T00:00:00+00:00", "2024-02-29T23:59:59+00:00",
            "1900-02-29T00:00:00+00:00", "2000-02-29T00:00:00+00:00", "2026-04-31T00:00:00+00:00",
            "2026-12-31T24:00:00+00:00", "2026-12-31T23:60:00+00:00", "2026-12-31T23:59:60+00:00",
            "2026-00-10T00:00:00+00:00", "2026-13-10T00:00:00+00:00", "2026-01-00T00:00:00+00:00",
            "0999-01-01T00:00:00+00:00", "0000-01-01T00:00:00+00:00", "2026-01-01T00:00:00-00:00",
            "2026-01-01T00:00:00+01:00", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01 00:00:00+00:00"}) {
            assertEquals(Times.javaTime(text), Times.parse(text), text);
        }
    }

    /** {@code text} with one character changed, dropped or added, or (mostly) unchanged. */
    private static String slip(Random random, String text) {
        int at = random.nextInt(text.length());
        char c = SLIPS.charAt(random.nextInt(SLIPS.length()));
        return switch (random.nextInt(6)) {
            case 0 -> text.substring(0, at) + c + text.substring(at + 1);
            case 1 -> text.substring(0, at) + text.substring(at + 1);
            case 2 -> text.substring(0, at) + c + text.substring(at);
            default -> text;
        };
    }
}
