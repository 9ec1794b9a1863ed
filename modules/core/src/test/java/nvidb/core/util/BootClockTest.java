package nvidb.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BootClockTest {
    @Test
    void readsThisHostsBootClockWhichOnlyMovesForward() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/uptime")), "Linux");
        BootClock first = BootClock.now().orElseThrow();
        Thread.sleep(50);
        BootClock second = BootClock.now().orElseThrow();
        assertEquals(first.bootId(), second.bootId());
        assertTrue(second.since(first).getAsLong() >= 0 && second.since(first).getAsLong() < 5_000, first + " " + second);
    }

    @Test
    void aReadingAtAnEarlierWallInstantAndTheTimeSinceIt() {
        Instant now = Instant.parse("2026-12-05T12:00:00Z");
        BootClock reading = new BootClock("b", 100_000);
        assertEquals(new BootClock("b", 40_000), reading.at(now.minusSeconds(60), now));
        assertEquals(reading, reading.at(now.plusSeconds(3600), now), "a start in the future happened now at the latest");
        assertEquals(new BootClock("b", 0), reading.at(now.minusSeconds(3600), now), "never before the boot");
        assertEquals(OptionalLong.of(60_000), reading.since(new BootClock("b", 40_000)));
        assertEquals(OptionalLong.empty(), reading.since(new BootClock("another boot", 40_000)), "a reboot in between");
    }
}
