package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class TimesTest {
    @Test
    void isoIsUtcWholeSecondsWithAnExplicitOffset() {
        assertEquals("2026-12-02T10:06:44+00:00", Times.iso(Instant.parse("2026-12-02T10:06:44Z")));
        assertEquals("2026-12-02T10:06:44+00:00", Times.iso(Instant.parse("2026-12-02T10:06:44.999Z")),
                "fractions are cut, never rounded up");
        assertEquals("2026-01-01T00:00:00+00:00", Times.iso(Instant.parse("2026-01-01T00:00:00Z")));
        assertNull(Times.iso(null));
    }

    @Test
    void parsesWhatItWritesAndUtcWithoutAnOffset() {
        Instant t = Instant.parse("2026-12-02T10:06:44Z");
        assertEquals(t, Times.parse(Times.iso(t)));
        assertEquals(t, Times.parse("2026-12-02T12:06:44+02:00"));
        assertEquals(t, Times.parse("2026-12-02T10:06:44"));
        assertNull(Times.parse("yesterday"));
        assertNull(Times.parse(""));
        assertNull(Times.parse(null));
    }

    @Test
    void nowIsWholeSeconds() {
        Instant now = Times.now();
        assertEquals(now, now.truncatedTo(ChronoUnit.SECONDS));
    }

    @Test
    void agesAndDurations() {
        Instant t = Instant.parse("2026-12-02T10:00:00Z");
        assertEquals("never", Times.age(null, t));
        assertEquals("5s ago", Times.age(t.minusSeconds(5), t));
        assertEquals("3m ago", Times.age(t.minusSeconds(200), t));
        assertEquals("2h ago", Times.age(t.minusSeconds(7300), t));
        assertEquals("4d ago", Times.age(t.minusSeconds(4 * 86400 + 5), t));
        assertEquals("0s ago", Times.age(t.plusSeconds(30), t), "a clock behind the writer's never goes negative");
        assertEquals("-", Times.duration(null));
        assertEquals("00:01:05", Times.duration(65.0));
        assertEquals("1-01:00:00", Times.duration(90000.0));
    }
}
