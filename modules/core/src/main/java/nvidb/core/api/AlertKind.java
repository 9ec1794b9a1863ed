package nvidb.core.api;

import java.util.Locale;

/**
 * What an alert is about. Each kind has one severity, so that the same fault is never raised as
 * an error in one place and as a warning in another.
 */
public enum AlertKind {
    JOB_FAILED(Severity.ERROR),
    /** Failed for want of GPU memory (an out-of-memory line in its stderr), retries spent or none possible. */
    JOB_OOM(Severity.ERROR),
    JOB_TIMEOUT(Severity.ERROR),
    JOB_LOST(Severity.ERROR),
    JOB_UNSCHEDULABLE(Severity.ERROR),
    JOB_RETRIED(Severity.WARNING),
    JOB_HELD(Severity.WARNING),
    LAUNCH_FAILED(Severity.WARNING),
    /** A running job uses more GPU memory than it reserved, beyond the margin. */
    JOB_OVERRUN(Severity.WARNING),
    /** A running job's GPUs have sat idle for {@code queue.idle_after}. */
    JOB_IDLE(Severity.WARNING),
    NODE_DOWN(Severity.ERROR);

    /** How urgent an alert is; its label is the {@code severity} scripts read. */
    public enum Severity {
        ERROR, WARNING;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Severity severity;

    AlertKind(Severity severity) {
        this.severity = severity;
    }

    public Severity severity() {
        return severity;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
