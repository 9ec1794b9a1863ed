package nvidb.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.config.NodeKind;
import nvidb.core.config.ServerConfig;
import org.junit.jupiter.api.Test;

/** The one lane rule: lane, then node, then cards, then head; the first reason wins. */
class LaneReadinessTest {
    private static final Instant T = Instant.parse("2026-12-03T10:00:00Z");
    private static final ServerConfig BOX = new ServerConfig("box", "box", 22, null, null,
            new NodeKind.Workstation("ssh"), null, null, null, Map.of());

    @Test
    void theLaneAndItsNodeAreCheckedInOrder() {
        LaneRecord lane = lane(false);
        assertNull(LaneReadiness.unavailable(lane, node(NodeState.UP, true, false), BOX));
        assertEquals("paused", LaneReadiness.unavailable(lane(true), node(NodeState.DOWN, false, true), BOX),
                "a paused lane says so first");
        assertEquals("node box is not configured", LaneReadiness.unavailable(lane, node(NodeState.UP, true, false),
                null));
        assertEquals("node box is ignored", LaneReadiness.unavailable(lane, node(NodeState.UP, true, true), BOX));
        assertEquals("node box is drained", LaneReadiness.unavailable(lane, node(NodeState.UP, false, false), BOX));
        assertEquals("node box is down", LaneReadiness.unavailable(lane, node(NodeState.DOWN, true, false), BOX));
        assertEquals("node box is unknown", LaneReadiness.unavailable(lane, node(NodeState.UNKNOWN, true, false),
                BOX));
    }

    @Test
    void aCardTheNodeLacksOrMayNotUseIsNamed() {
        LaneRecord lane = lane(false);
        assertNull(LaneReadiness.cardsUnusable(lane, List.of(0, 1), BOX));
        assertEquals("node box has no GPU 1 (the last probe saw none)",
                LaneReadiness.cardsUnusable(lane, List.of(), BOX));
        ServerConfig onlyZero = new ServerConfig("box", "box", 22, null, List.of(0), new NodeKind.Workstation("ssh"),
                null, null, null, Map.of());
        assertEquals("GPU 1 of node box is not in its gpu_ids allowlist [0]",
                LaneReadiness.cardsUnusable(lane, List.of(0, 1), onlyZero));
    }

    @Test
    void aHeldOrWaitingHeadStopsTheLane() {
        Job dep = job(1, JobState.RUNNING, List.of(), null);
        assertTrue(LaneReadiness.headReady(job(2, JobState.PENDING, List.of(), null), Map.of()));
        assertFalse(LaneReadiness.headReady(job(2, JobState.PENDING, List.of(), "dependency 9 ended as failed"),
                Map.of()));
        assertFalse(LaneReadiness.headReady(job(2, JobState.PENDING, List.of(1L), null), Map.of(1L, dep)),
                "waits while its dependency runs");
    }

    private static LaneRecord lane(boolean paused) {
        return new LaneRecord("box:1", "box", List.of(1), paused, 1, true, null, null, T, T);
    }

    private static NodeRecord node(NodeState state, boolean enabled, boolean ignored) {
        return new NodeRecord("box", "box", 22, null, state, enabled, ignored, T, null, 2, T, 0);
    }

    private static Job job(long id, JobState state, List<Long> after, String held) {
        return new Job(id, "", state, "true", null, Map.of(), 0, 1, 0, "box", after, List.of(), null, "t", List.of(),
                T, T, null, null, null, List.of(), "box:1", id, null, null, null, null, 0, 0, null, null, null, null,
                null, null, null, held, null);
    }
}
