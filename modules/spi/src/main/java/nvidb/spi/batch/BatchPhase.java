package nvidb.spi.batch;

/** Where a batch job stands, in the words core acts on; the plugin maps its system's states onto these. */
public enum BatchPhase {
    /** Waiting in the batch system's queue (with a reason). */
    QUEUED,
    /** Allocated and running (or starting, or finishing). */
    RUNNING,
    /** Ended by itself; the job's own files say how. */
    ENDED,
    /** Stopped by the batch system at its time limit. */
    TIMED_OUT,
    /** Cancelled in the batch system. */
    CANCELLED,
    /** Its node failed under it: lost, or retried. */
    NODE_FAILED,
    /** Preempted: it goes back to waiting. */
    PREEMPTED
}
