package nvidb.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The sizing rules: families, the learned figure, and the figure after running out of memory. */
class VramSizingTest {
    @Test
    void aNamesFamilyDropsTrailingDigitsAndSeparators() {
        assertEquals("trainer", VramSizing.nameFamily("trainer-3"));
        assertEquals("trainer", VramSizing.nameFamily("trainer_12"));
        assertEquals("trainer", VramSizing.nameFamily("trainer.2-7"));
        assertEquals("resnet", VramSizing.nameFamily("resnet50"));
        assertEquals("eval-final", VramSizing.nameFamily("eval-final"));
        assertNull(VramSizing.nameFamily(""));
        assertNull(VramSizing.nameFamily("123"));
        assertNull(VramSizing.nameFamily("sweep12-3"), "an unnamed sweep's runs learn from their sweep instead");
        assertEquals("lr", VramSizing.nameFamily("lr-0"), "a named sweep's runs: its --name");
    }

    @Test
    void aCommandsFamilyMasksItsNumbers() {
        assertEquals("python train.py --lr # --seed # --out run#",
                VramSizing.commandFamily("python  train.py --lr 0.001 --seed 3 --out run7"));
        assertEquals(VramSizing.commandFamily("python train.py --lr 1e-4"), VramSizing.commandFamily("python train.py --lr 3e-5"));
        assertNull(VramSizing.commandFamily(" "));
    }

    @Test
    void theLearnedFigureIsThe95thPercentilePlusTheMarginRoundedUp() {
        assertEquals(8000, VramSizing.percentile95(List.of(6000, 8000, 7000)));
        // 20 runs: the 19th smallest (nearest rank), not the single outlier.
        List<Integer> twenty = IntStream.rangeClosed(1, 20).map(i -> i == 20 ? 40000 : 10000 + i).boxed().toList();
        assertEquals(10019, VramSizing.percentile95(twenty));
        assertEquals(9216, VramSizing.withMargin(8000, 15)); // 9200 up to a multiple of 256
        assertEquals(8192, VramSizing.withMargin(8192, 0));
    }

    @Test
    void afterRunningOutOfMemoryTheLargerOfPeakTimesOneAndAQuarterAndReservationTimesOneAndAHalf() {
        assertEquals(6144, VramSizing.afterOom(4096, null));
        assertEquals(6144, VramSizing.afterOom(4096, 4000));
        assertEquals(12544, VramSizing.afterOom(4096, 10000)); // 12500 rounded up
    }
}
