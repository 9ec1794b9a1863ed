package nvidb.core.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import nvidb.core.api.NvidbException;

/** A job's state. "held" is not a state: it is a pending job with a hold reason. */
public enum JobState {
    PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, LOST;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean terminal() {
        return this != PENDING && this != RUNNING;
    }

    public boolean active() {
        return !terminal();
    }

    public static JobState fromLabel(String label) {
        for (JobState s : values()) {
            if (s.label().equalsIgnoreCase(label == null ? "" : label.strip())) {
                return s;
            }
        }
        throw NvidbException.usage("unknown state '" + label + "' (one of "
                + Arrays.stream(values()).map(JobState::label).collect(Collectors.joining(", ")) + ")");
    }
}
