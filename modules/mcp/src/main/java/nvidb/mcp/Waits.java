package nvidb.mcp;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.core.api.Job;
import nvidb.core.app.JobOperations;
import nvidb.core.view.JobDocuments;

/** What the {@code wait} tool answers and says while it waits. */
final class Waits {
    private Waits() {
    }

    /**
     * {@code job wait --json}'s document and the outcome the CLI exits with: 0 all completed, 1 one
     * ended badly, 2 the timeout ran out with work still going (not a failure: wait again), 3 an id
     * is unknown (the others were waited for), 130 the client cancelled the wait.
     */
    record Answer(@JsonUnwrapped JobDocuments.Waited waited, int outcome) {
    }

    static int outcome(JobOperations.Waited o) {
        if (o.interrupted()) {
            return 130;
        }
        if (o.verdict().code() != null) {
            return o.verdict().code().exitCode();
        }
        return o.timedOut() ? 2 : o.allSucceeded() ? 0 : 1;
    }

    static String summary(JobOperations.Waited o, int outcome) {
        String states = o.jobs().stream().map(j -> j.id() + " " + j.displayState()).collect(Collectors.joining(", "));
        return switch (outcome) {
            case 0 -> "all completed: " + states;
            case 1 -> "ended, not all completed: " + states;
            case 2 -> "wait timed out; still going (not a failure, wait again): " + states;
            case 130 -> "wait cancelled; nothing was cancelled, the jobs keep going: " + states;
            default -> o.verdict().message() + (states.isEmpty() ? "" : "; waited for " + states);
        };
    }

    /** A line per look while waiting: each job still going, its state and status line. */
    static String progressLine(List<Job> going) {
        String shown = going.stream().limit(10).map(j -> "job " + j.id() + " " + j.displayState()
                + (j.progress() == null ? "" : " (" + j.progress() + ")")).collect(Collectors.joining("; "));
        return going.size() > 10 ? shown + "; +" + (going.size() - 10) + " more" : shown;
    }
}
