package nvidb.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DeliveryBackoffTest {

    @Test
    void thirtySecondsDoublingUpToAnHour() {
        assertEquals(List.of(30L, 60L, 120L, 240L, 480L, 960L, 1920L, 3600L, 3600L),
                IntStream.rangeClosed(1, 9).mapToObj(n -> DeliveryBackoff.after(n).toSeconds()).toList());
    }

    @Test
    void manyFailuresStayAtTheCapWithoutOverflowing() {
        assertEquals(Duration.ofHours(1), DeliveryBackoff.after(64));
        assertEquals(Duration.ofHours(1), DeliveryBackoff.after(Integer.MAX_VALUE));
    }

    @Test
    void attemptsStartAtOne() {
        assertThrows(IllegalArgumentException.class, () -> DeliveryBackoff.after(0));
    }
}
