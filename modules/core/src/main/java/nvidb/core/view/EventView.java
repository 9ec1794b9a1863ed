package nvidb.core.view;

import com.fasterxml.jackson.databind.JsonNode;
import nvidb.core.api.Event;
import nvidb.core.api.Times;

/** One event of the log. */
public record EventView(long id, String ts, String kind, Long jobId, String node, String message, JsonNode data) {
    public static EventView of(Event e) {
        return new EventView(e.id(), Times.iso(e.ts()), e.kind(), e.jobId(), e.node(), e.message(),
                StoredJson.parsed(e.dataJson()));
    }
}
