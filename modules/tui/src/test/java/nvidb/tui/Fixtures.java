package nvidb.tui;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Alert;
import nvidb.core.api.GpuState;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NodeAdmin.NodeView;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;

/** Records as the queue hands them out, for the model and view tests. */
public final class Fixtures {
    public static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

    private Fixtures() {
    }

    /** A job: pending, running or finished; {@code lane} and {@code held} may be null. */
    public static Job job(long id, JobState state, int priority, String lane, String held) {
        return job(id, "job" + id, state, priority, lane, lane == null ? null : (long) id * 1000, held, List.of());
    }

    public static Job job(long id, String name, JobState state, int priority, String lane, Long laneSeq, String held,
                          List<Long> after) {
        boolean started = state != JobState.PENDING;
        return new Job(id, name, state, "sleep " + id, null, Map.of(), priority, 1, 1024, null, after, List.of(), null,
                "tester@box:1", List.of(), T0.plusSeconds(id), T0.plusSeconds(id), started ? T0.plusSeconds(100 + id) : null,
                state.terminal() ? T0.plusSeconds(200 + id) : null, started ? "alpha" : null,
                started ? List.of(0) : List.of(), lane, laneSeq, null, null, null,
                state == JobState.FAILED ? Integer.valueOf(1) : state == JobState.COMPLETED ? Integer.valueOf(0) : null, 1, 0, null, null, null, null, null,
                null, null, held, null);
    }

    public static NodeView node(String name, NodeState state, boolean enabled, String error, GpuState... gpus) {
        NodeRecord r = new NodeRecord(name, name + ".lan", 22, "u", state, enabled, false, T0, error, gpus.length, T0, 0);
        return new NodeView(r, List.of(gpus), List.of());
    }

    /** A 24 GiB card: {@code external} MiB held by others, {@code reserved} by the queue, headroom 512. */
    public static GpuState gpu(String node, int index, long external, long reserved, String attribution) {
        int total = 24576;
        return new GpuState(node, index, "GPU-" + node + index, "NVIDIA GeForce RTX 4090", total,
                (int) (external + reserved), 45, 10, 51, external, external > 0 ? 1 : 0, reserved, reserved,
                reserved > 0 ? 1 : 0, attribution, List.of(), Math.max(0, total - external - reserved - 512), T0);
    }

    public static LaneView lane(String name, String node, List<Job> running, List<Job> queued) {
        LaneRecord r = new LaneRecord(name, node, List.of(0), false, 1, true, null, null, T0, T0);
        return new LaneView(r, "up", running, queued, null, true);
    }

    public static Alert alert(long id, String title) {
        return new Alert(id, T0, "job_failed", "error", null, null, title, "", null, null);
    }
}
