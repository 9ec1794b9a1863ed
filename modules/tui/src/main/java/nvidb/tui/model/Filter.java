package nvidb.tui.model;

import nvidb.core.api.Job;
import nvidb.core.api.JobState;

/** Which jobs the table lists; {@code f} goes round them in this order. */
public enum Filter {
    ACTIVE("active"), ALL("all"), RUNNING("running"), PENDING("pending"), FINISHED("finished");

    private final String label;

    Filter(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public Filter next() {
        return values()[(ordinal() + 1) % values().length];
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
