package nvidb.core.api;

import java.util.List;

/**
 * Changes to a job's own fields that are not state changes: note, result, priority, its place in
 * the dispatch order, and its dependencies. Each is one transaction and touches no node.
 */
public interface JobEdits {
    Job setNote(long id, String text, boolean append);

    /** Stores any JSON value as the job's result; text that is not JSON is refused. */
    Job setResult(long id, String json);

    /** Sets ({@code 5}) or adjusts ({@code +1}, {@code -2}) a job's priority. */
    Job setPriority(long id, String value);

    record Moved(long id, boolean moved, int priority, int slot) {
    }

    /**
     * Moves a pending job (not in a lane) {@code slots} places earlier (positive) or later
     * (negative) in dispatch order, by lowering the priorities of the jobs it passes: priorities
     * never rise, so no other job jumps ahead of work it was behind.
     */
    Moved movePriority(long id, int slots);

    record Edited(Job job, boolean changed, TickSummary tick) {
    }

    Edited editDependencies(long id, List<Long> addAfter, List<Long> dropAfter, List<Long> addAny,
                          List<Long> dropAny, TickMode after);
}
