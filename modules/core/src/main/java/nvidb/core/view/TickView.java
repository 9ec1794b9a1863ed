package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.TickSummary;

/**
 * A scheduler pass's summary: {@code {"skipped": "disabled"}} when the command ran with
 * {@code --no-tick}, {@code {"ran": false, "skipped": "not_needed"}} when the change needed none,
 * else what the pass did.
 */
public sealed interface TickView {
    static TickView of(TickSummary t) {
        if (t == null) {
            return new NotNeeded(false, "not_needed");
        }
        if (t.isDisabled()) {
            return new Disabled("disabled");
        }
        return new Ran(t.ran(), t.skippedReason(), t.nodesUp(), t.nodesDown(), t.nodesIgnored(),
                t.finished().stream().map(f -> new Finished(f.id(), f.state(), f.exitCode())).toList(),
                t.dispatched().stream().map(d -> new Dispatched(d.id(), d.node(), d.gpuIds(), d.lane())).toList(),
                t.errors().stream().map(TickView::problem).toList(),
                t.alerts().stream().map(a -> new AlertRef(a.id(), a.kind(), a.title(), a.jobId())).toList(),
                t.lockOwner(),
                t.deliveries().isEmpty() ? null : t.deliveries().stream()
                        .map(d -> new Delivery(d.alertId(), d.sink(), d.outcome(), d.error())).toList(),
                t.held().isEmpty() ? null : t.held().stream().map(h -> new Held(h.id(), h.reason())).toList());
    }

    /** {@code {"<node|job|lane>": subject, "error": …}}: the key names what failed. */
    private static Map<String, Object> problem(TickSummary.Problem p) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put(p.subjectKey(), p.subject());
        o.put("error", p.error());
        return o;
    }

    record NotNeeded(boolean ran, String skipped) implements TickView {
    }

    record Disabled(String skipped) implements TickView {
    }

    record Ran(boolean ran, String skipped, int nodesUp, int nodesDown, int nodesIgnored, List<Finished> finished,
               List<Dispatched> dispatched, List<Map<String, Object>> errors, List<AlertRef> alerts,
               @JsonInclude(Include.NON_NULL) String lockOwner,
               @JsonInclude(Include.NON_NULL) List<Delivery> deliveries,
               @JsonInclude(Include.NON_NULL) List<Held> held) implements TickView {
    }

    record Finished(long id, String state, @JsonInclude(Include.NON_NULL) Integer exitCode) {
    }

    record Dispatched(long id, String node, List<Integer> gpuIds, @JsonInclude(Include.NON_NULL) String lane) {
    }

    record AlertRef(long id, String kind, String title, Long jobId) {
    }

    record Delivery(long alertId, String sink, String outcome, @JsonInclude(Include.NON_NULL) String error) {
    }

    record Held(long id, String reason) {
    }
}
