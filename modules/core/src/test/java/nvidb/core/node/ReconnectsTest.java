package nvidb.core.node;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReconnectsTest {
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void aFailingNodeWaitsOneTwoFourSecondsUpToAMinuteAndASuccessForgetsIt() {
        Reconnects r = new Reconnects();
        assertNull(r.refusal("box", T0), "never failed: tried");
        r.failed("box", "connection refused", T0);
        String why = r.refusal("box", T0.plusMillis(500));
        assertNotNull(why);
        assertTrue(why.startsWith("connection refused (1 failure in a row; tried again in 1 s)"), why);
        assertNull(r.refusal("box", T0.plusSeconds(1)), "its second is up");
        assertNull(r.refusal("other", T0.plusMillis(500)), "other nodes are not held back");

        r.failed("box", "connection refused", T0.plusSeconds(1));
        assertNotNull(r.refusal("box", T0.plusMillis(2900)));
        assertNull(r.refusal("box", T0.plusSeconds(3)), "2 s after the second failure");
        Instant t = T0.plusSeconds(3);
        for (int i = 0; i < 10; i++) {
            r.failed("box", "timeout", t);
        }
        assertNotNull(r.refusal("box", t.plusSeconds(59)));
        assertNull(r.refusal("box", t.plusSeconds(60)), "never more than a minute");

        r.succeeded("box");
        assertNull(r.refusal("box", t.plusMillis(1)));
    }
}
