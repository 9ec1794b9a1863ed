package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.Times;

/** A lane's own record: the reference's Lane keys, in its order. */
public record LaneView(String name, String node, List<Integer> gpuIds, boolean paused, int concurrency, boolean runner,
                       boolean runnerUp, JsonNode runnerState, String runnerSeenAt, String createdAt,
                       String updatedAt) {
    public static LaneView of(LaneRecord l, boolean runnerUp) {
        return new LaneView(l.name(), l.node(), l.gpuIds(), l.paused(), l.concurrency(), l.runner(), runnerUp,
                StoredJson.parsed(l.runnerStateJson()), Times.iso(l.runnerSeenAt()), Times.iso(l.createdAt()),
                Times.iso(l.updatedAt()));
    }

    /** The lane with node_state, running, queued (in running order) and blocked. */
    public record Detail(@JsonUnwrapped LaneView lane, String nodeState, List<JobView> running, List<JobView> queued,
                         String blocked) {
        public static Detail of(LaneQueries.LaneView v, Instant now) {
            return new Detail(LaneView.of(v.lane(), v.runnerUp()), v.nodeState(), JobView.of(v.running(), now),
                    JobView.of(v.queued(), now), v.blocked());
        }
    }
}
