package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Generated input for the parsers of what users type: sizes and ids (lists included). Each
 * either reads the value the text means, or refuses it with a usage error (exit 64) that quotes
 * the text, never with any other exception. Seeded, so a failure names an input that repeats.
 */
class ParserPropertiesTest {
    /** Characters that sit near the valid forms: digits, units, signs, separators, Unicode digits and spaces. */
    private static final String NEAR = "0123456789.,+-eE MmGgTtiIbB kK\t\u00a0\u0663\u2009_x%";
    private static final String[] UNITS = {"", "m", "M", "MB", "mib", "MiB", "g", "G", "GB", "GiB", "t", "T", "TB", "TiB"};

    /** Text near a number, any text, or a very long run of digits. */
    static String hostile(Random random) {
        int kind = random.nextInt(10);
        if (kind < 6) {
            return chars(random, NEAR, random.nextInt(25));
        }
        if (kind < 9) {
            StringBuilder sb = new StringBuilder();
            for (int i = random.nextInt(40); i > 0; i--) {
                sb.appendCodePoint(random.nextInt(3) == 0 ? random.nextInt(0x2FFF) : 0x20 + random.nextInt(0x5F));
            }
            return sb.toString();
        }
        return chars(random, "0123456789", 19 + random.nextInt(400));
    }

    static String chars(Random random, String from, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(from.charAt(random.nextInt(from.length())));
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- sizes

    @Test
    void aSizeIsReadOrRefusedWithUsage() {
        Random random = new Random(24_001L);
        for (int i = 0; i < 20_000; i++) {
            String text = hostile(random);
            try {
                long mb = Sizes.parseMb(text);
                assertTrue(mb >= 0, () -> "a size is never negative: '" + text + "' -> " + mb);
            } catch (NvidbException e) {
                assertEquals(ErrorCode.USAGE, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains(text), () -> "the error quotes the text: " + e.getMessage());
            }
        }
    }

    @Test
    void wholeSizesInEveryUnitReadExactlyOrAreTooLarge() {
        Random random = new Random(24_002L);
        for (int i = 0; i < 5_000; i++) {
            long n = random.nextInt(4) == 0 ? random.nextLong(Long.MAX_VALUE) : random.nextLong(1L << 40);
            String unit = UNITS[random.nextInt(UNITS.length)];
            String text = n + (random.nextBoolean() ? " " : "") + unit;
            BigDecimal expected = BigDecimal.valueOf(n).multiply(BigDecimal.valueOf(factor(unit)));
            if (expected.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                NvidbException e = assertThrows(NvidbException.class, () -> Sizes.parseMb(text));
                assertEquals(ErrorCode.USAGE, e.code());
                assertTrue(e.getMessage().contains("too large"), e::getMessage);
            } else {
                assertEquals(expected.longValueExact(), Sizes.parseMb(text), text);
            }
        }
    }

    @Test
    void fractionalSizesRoundHalfToEven() {
        Random random = new Random(24_003L);
        for (int i = 0; i < 5_000; i++) {
            String number = random.nextInt(100_000) + "." + String.format(Locale.ROOT, "%03d", random.nextInt(1000));
            String unit = UNITS[random.nextInt(UNITS.length)];
            long expected = new BigDecimal(number).multiply(BigDecimal.valueOf(factor(unit)))
                    .setScale(0, RoundingMode.HALF_EVEN).longValueExact();
            assertEquals(expected, Sizes.parseMb(number + unit), number + unit);
        }
    }

    @Test
    void aFormattedSizeReadsBackNearItsValue() {
        Random random = new Random(24_004L);
        for (int i = 0; i < 5_000; i++) {
            long mb = random.nextLong(1L << (1 + random.nextInt(30)));
            long back = Sizes.parseMb(Sizes.format(mb));
            // format keeps one decimal of GiB (whole GiB from 100G on): within half of what it shows.
            double tolerance = mb < 1024 ? 0 : mb < 100 * 1024 ? 52 : 513;
            assertTrue(Math.abs(back - mb) <= tolerance, () -> mb + " -> " + Sizes.format(mb) + " -> " + back);
        }
    }

    private static long factor(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        return u.startsWith("g") ? 1024L : u.startsWith("t") ? 1024L * 1024L : 1L;
    }

    // ---------------------------------------------------------------- ids

    @Test
    void anIdIsPositiveOrRefusedWithUsage() {
        Random random = new Random(24_005L);
        for (int i = 0; i < 20_000; i++) {
            String text = hostile(random);
            try {
                assertTrue(Ids.parse(text) > 0);
            } catch (NvidbException e) {
                assertEquals(ErrorCode.USAGE, e.code());
                assertTrue(e.getMessage().contains("'" + text + "'"), e::getMessage);
            }
        }
    }

    @Test
    void everyPositiveIdReadsBackAndNoOtherNumberDoes() {
        Random random = new Random(24_006L);
        String[] blank = {"", " ", "  ", "\t", "\n"};
        for (int i = 0; i < 5_000; i++) {
            long id = 1 + random.nextLong(Long.MAX_VALUE);
            assertEquals(id, Ids.parse(blank[random.nextInt(5)] + id + blank[random.nextInt(5)]));
            long notAnId = -random.nextLong(Long.MAX_VALUE);
            assertEquals(ErrorCode.USAGE, assertThrows(NvidbException.class, () -> Ids.parse(Long.toString(notAnId))).code());
        }
    }

    @Test
    void idListsReadInOrderWhateverTheSeparators() {
        Random random = new Random(24_007L);
        String[] separators = {",", " ", ",,", ", "};
        for (int i = 0; i < 5_000; i++) {
            List<Long> ids = new ArrayList<>();
            for (int n = random.nextInt(20); n > 0; n--) {
                ids.add(1 + random.nextLong(random.nextBoolean() ? 1000 : Long.MAX_VALUE));
            }
            // Arguments as a shell splits them, each possibly a comma list with empty parts.
            List<String> args = new ArrayList<>();
            StringBuilder current = new StringBuilder(random.nextBoolean() ? "," : "");
            for (Long id : ids) {
                current.append(id);
                String sep = separators[random.nextInt(separators.length)];
                if (sep.equals(" ")) {
                    args.add(current.toString());
                    current.setLength(0);
                } else {
                    current.append(sep);
                }
            }
            args.add(current.toString());
            assertEquals(ids, Ids.parseLists(args), args.toString());
        }
    }

    @Test
    void anIdListWithOneBadPartIsRefusedNamingThatPart() {
        Random random = new Random(24_008L);
        for (int i = 0; i < 5_000; i++) {
            String bad = hostile(random);
            if (bad.isBlank() || bad.contains(",") || parses(bad)) {
                continue; // only texts that are one wrong id
            }
            List<String> args = new ArrayList<>();
            for (int n = random.nextInt(5); n > 0; n--) {
                args.add(Long.toString(1 + random.nextInt(1000)));
            }
            args.add(random.nextInt(args.size() + 1), bad);
            NvidbException e = assertThrows(NvidbException.class, () -> Ids.parseLists(args));
            assertEquals(ErrorCode.USAGE, e.code());
            assertTrue(e.getMessage().contains(bad), e::getMessage);
        }
    }

    private static boolean parses(String text) {
        try {
            Ids.parse(text);
            return true;
        } catch (NvidbException e) {
            return false;
        }
    }
}
