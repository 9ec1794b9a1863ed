package nvidb.core.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;

/**
 * A lane position as {@code --to} and {@code --at} take it: head, tail or a 1-based slot, where
 * a slot past the end goes to the end (as the help says), however far past. Generated, seeded.
 */
class LanePositionPropertiesTest {
    private static final String NEAR = "0123456789+-. headtilHEADTIL\u0663\t";

    @Test
    void aPositionIsASlotOfTheLaneOrAUsageError() {
        Random random = new Random(24_101L);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = random.nextInt(30); n > 0; n--) {
                sb.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x3000) : NEAR.charAt(random.nextInt(NEAR.length())));
            }
            String at = sb.toString();
            int size = 1 + random.nextInt(10_000);
            try {
                int slot = Lanes.slot(at, size);
                assertTrue(slot >= 1 && slot <= size, () -> "'" + at + "' -> " + slot + " of " + size);
            } catch (NvidbException e) {
                assertEquals(ErrorCode.USAGE, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("'" + at + "'"), e::getMessage);
            }
        }
    }

    @Test
    void aNumberIsThatSlotOrTheEndHoweverLarge() {
        Random random = new Random(24_102L);
        for (int i = 0; i < 5_000; i++) {
            BigInteger n = new BigInteger(1 + random.nextInt(100), random).add(BigInteger.ONE);
            int size = 1 + random.nextInt(10_000);
            assertEquals(n.min(BigInteger.valueOf(size)).intValueExact(), Lanes.slot(n.toString(), size), n + " of " + size);
        }
    }

    @Test
    void zeroNegativeAndHeadAndTailInAnyCase() {
        for (String word : new String[] {"head", "HEAD", " Head ", "tail", "TAIL", "\ttAiL"}) {
            assertEquals(word.strip().equalsIgnoreCase("head") ? 1 : 7, Lanes.slot(word, 7), word);
        }
        for (String bad : new String[] {"0", "-1", "-99999999999999999999", "1e3", "", " ", "1.0", "first"}) {
            assertEquals(ErrorCode.USAGE, org.junit.jupiter.api.Assertions.assertThrows(NvidbException.class,
                    () -> Lanes.slot(bad, 7)).code(), bad);
        }
    }
}
