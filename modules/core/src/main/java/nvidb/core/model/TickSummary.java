package nvidb.core.model;

import java.util.ArrayList;
import java.util.List;

/** What one scheduler pass did, as {@code queue tick --json} prints it. */
public final class TickSummary {
    public record Finished(long id, String state, Integer exitCode) {
    }

    public record Dispatched(long id, String node, List<Integer> gpuIds, String lane) {
    }

    public record Problem(String subjectKey, String subject, String error) {
    }

    public record AlertRef(long id, String kind, String title, Long jobId) {
    }

    public record Held(long id, String reason) {
    }

    private boolean ran;
    private String skipped;
    private String lockOwner;
    private int nodesUp;
    private int nodesDown;
    private int nodesIgnored;
    private final List<Finished> finished = new ArrayList<>();
    private final List<Dispatched> dispatched = new ArrayList<>();
    private final List<Problem> errors = new ArrayList<>();
    private final List<AlertRef> alerts = new ArrayList<>();
    private final List<Held> held = new ArrayList<>();
    private final boolean disabled;

    private TickSummary(boolean disabled) {
        this.disabled = disabled;
    }

    public static TickSummary started() {
        TickSummary s = new TickSummary(false);
        s.ran = true;
        return s;
    }

    public static TickSummary skipped(String why, String lockOwner) {
        TickSummary s = new TickSummary(false);
        s.skipped = why;
        s.lockOwner = lockOwner;
        return s;
    }

    /** The summary of a command run with {@code --no-tick}: printed as {"skipped": "disabled"}. */
    public static TickSummary disabled() {
        TickSummary s = new TickSummary(true);
        s.skipped = "disabled";
        return s;
    }

    public boolean isDisabled() {
        return disabled;
    }

    public boolean ran() {
        return ran;
    }

    public String skippedReason() {
        return skipped;
    }

    public String lockOwner() {
        return lockOwner;
    }

    public int nodesUp() {
        return nodesUp;
    }

    public int nodesDown() {
        return nodesDown;
    }

    public int nodesIgnored() {
        return nodesIgnored;
    }

    public void countNode(String state, boolean ignored) {
        if (ignored) {
            nodesIgnored++;
        } else if ("up".equals(state)) {
            nodesUp++;
        } else if ("down".equals(state)) {
            nodesDown++;
        }
    }

    public List<Finished> finished() {
        return finished;
    }

    public List<Dispatched> dispatched() {
        return dispatched;
    }

    public List<Problem> errors() {
        return errors;
    }

    public List<AlertRef> alerts() {
        return alerts;
    }

    public List<Held> held() {
        return held;
    }
}
