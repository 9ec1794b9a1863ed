package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import nvidb.core.api.Event;
import nvidb.core.api.Times;

/** One event of the log; {@code by} (who asked for it) only where an operation of a caller wrote it. */
public record EventView(long id, String ts, String kind, Long jobId, String node, String message, JsonNode data,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Event.By by) {
    public static EventView of(Event e) {
        return new EventView(e.id(), Times.iso(e.ts()), e.kind(), e.jobId(), e.node(), e.message(),
                StoredJson.parsed(e.dataJson()), e.by());
    }
}
