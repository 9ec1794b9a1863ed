package nvidb.tui.model;

import nvidb.core.api.Job;
import nvidb.core.api.JobState;

/** Which jobs the table lists; {@code f} goes round them in this order. */
public enum Filter {
    ACTIVE, ALL, RUNNING, PENDING, FINISHED;

    public String label() {
        return Cycles.label(this);
    }

    public Filter next() {
        return Cycles.next(this);
    }

    public boolean matches(Job job) {
        return switch (this) {
            case ACTIVE -> job.state().active();
            case ALL -> true;
            case RUNNING -> job.state() == JobState.RUNNING;
            case PENDING -> job.state() == JobState.PENDING;
            case FINISHED -> job.state().terminal();
        };
    }
}
