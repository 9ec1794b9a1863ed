package nvidb.core.api;

import java.util.List;

/**
 * Every way a person reorders lanes: moving, swapping and skipping queued jobs, putting a job in
 * or out of a lane, pausing or resuming a lane, and its concurrency. Each change is one
 * transaction and touches no node, so it works while the node is unreachable; the lane named is
 * the lane acted on: a job that is not queued in it is refused rather than moved elsewhere.
 */
public interface LaneOrdering {
    /** Sets how many of the lane's jobs may run at once. */
    LaneRecord concurrency(String typed, int n);

    record Moved(long id, String lane, int position, TickSummary tick) {
    }

    /**
     * Moves a queued job of {@code laneTyped} to {@code to} (head, tail or a 1-based slot,
     * clamped), or just before or after another queued job of the same lane.
     */
    Moved move(String laneTyped, long id, String to, Long before, Long after, TickMode tick);

    record Swapped(String lane, List<Long> order, TickSummary tick) {
    }

    Swapped swap(String laneTyped, long a, long b, TickMode tick);

    /** @param skipped the job sent to the back, or null when fewer than two jobs are queued */
    record Skipped(String lane, Long skipped, List<Long> order, TickSummary tick) {
    }

    /** Sends the head of the lane to its back (also a held head: the sanctioned way past it). */
    Skipped skip(String laneTyped, TickMode after);

    /**
     * @param lane     the lane the job is in now; null after {@code --none}
     * @param position its 1-based slot there; null after {@code --none}
     */
    record Assigned(long id, String lane, String previous, Integer position, TickSummary tick) {
    }

    /** Puts a queued job into this lane, at the tail or {@code at}; its node pin becomes the lane's node. */
    Assigned assign(String laneTyped, long id, String at, TickMode after);

    /** Takes a queued job out of this lane; it joins the free pool with no node pin (decisions.md §8). */
    Assigned unassign(String laneTyped, long id, TickMode after);

    /** @param changed false when the lane already was in that state (no event then) */
    record Switched(LaneRecord lane, boolean changed, TickSummary tick) {
    }

    /**
     * Stops the lane starting new jobs; what already runs is left alone. When a runner holds the
     * lane's next job, a pass right away takes it back.
     */
    Switched pause(String laneTyped, TickMode after);

    Switched resume(String laneTyped, TickMode after);
}
