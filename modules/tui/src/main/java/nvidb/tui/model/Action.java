package nvidb.tui.model;

/**
 * What a key asked the queue to do. Each is carried out off the UI thread by the same core
 * operation the CLI command of that name uses; its outcome lands in the status line.
 */
public sealed interface Action {
    /** {@code nvidb job cancel ID}. */
    record Cancel(long id) implements Action {
    }

    /** {@code nvidb job requeue ID}, then a pass. */
    record Requeue(long id) implements Action {
    }

    /** {@code nvidb job priority ID +N} (or {@code -N}). */
    record Priority(long id, int delta) implements Action {
    }

    /** {@code nvidb job priority ID --up N} (negative: down) for a job of the free pool. */
    record MovePool(long id, int slots) implements Action {
    }

    /** {@code nvidb queue lane LANE move ID --to POSITION} for a job queued in a lane. */
    record MoveInLane(String lane, long id, int position) implements Action {
    }

    /** {@code nvidb queue drain NODE} or {@code nvidb queue resume NODE}. */
    record Drain(String node, boolean drain) implements Action {
    }

    /** {@code nvidb queue ack --all}. */
    record AckAll() implements Action {
    }

    /** {@code nvidb queue tick}: a forced pass. */
    record Tick() implements Action {
    }

    /** Leave the TUI with this exit code. */
    record Quit(int exitCode) implements Action {
    }
}
