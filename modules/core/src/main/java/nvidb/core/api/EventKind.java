package nvidb.core.api;

import java.util.Locale;

/** What an entry of the event log records; its label is the {@code kind} scripts read. */
public enum EventKind {
    JOB_SUBMITTED, JOB_STARTED, JOB_FINISHED, JOB_FAILED, JOB_TIMEOUT, JOB_LOST, JOB_REQUEUED, JOB_CANCELLED,
    JOB_HELD, JOB_UNHELD, JOB_RELEASED, JOB_REAPED, JOB_PRIORITY, JOB_DEPENDENCIES, JOB_BATCH_SUBMITTED,
    JOB_PURGED, JOB_OVERRUN, JOB_IDLE,
    NODE_UP, NODE_DOWN,
    LANE_REORDERED, LANE_ASSIGNED, LANE_PAUSED, LANE_RESUMED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
