package nvidb.core.api;

import java.time.Instant;
import java.util.List;

/**
 * Reading lanes: what each lane runs, what comes next and why it waits, in the words of the same
 * rule the scheduler acts on.
 */
public interface LaneQueries {
    /**
     * A lane and its work. {@code blocked} says why its next job cannot start, or null.
     *
     * @param nodeState the node's state, {@code unknown} when the node has no row
     */
    record LaneView(LaneRecord lane, String nodeState, List<Job> running, List<Job> queued, String blocked,
                    boolean runnerUp) {
        public LaneView {
            running = List.copyOf(running);
            queued = List.copyOf(queued);
        }
    }

    /** Resolves a lane name as typed (exact, case-insensitive, unique prefix, or {@code node:gpu}, created). */
    LaneRecord resolve(String typed);

    /** Every lane (or one node's), in node configuration order then GPU indices. */
    List<LaneView> list(String nodeTyped);

    LaneView show(String typed);

    /** Whether the lane's runner answered a sync or stop lately and was alive then. */
    boolean runnerUp(LaneRecord lane, Instant now);
}
