package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The documents of {@code queue lane L …}. */
public final class LaneDocuments {
    private LaneDocuments() {
    }

    /** A change of the lane's settings. */
    public record Changed(boolean ok, LaneView lane, TickView tick) {
    }

    /** A runner stop or restart: the reference's names the lane ({@code "lane": "box:0"}). */
    public record RunnerStopped(boolean ok, String lane, boolean stopped, boolean hard, TickView tick) {
    }

    /** {@code concurrency N}. */
    public record Concurrency(boolean ok, LaneView lane) {
    }

    public record Moved(boolean ok, long id, String lane, int position, TickView tick) {
    }

    public record Swapped(boolean ok, String lane, List<Long> order, TickView tick) {
    }

    /** {@code skip}: {@code skipped} null (and no order) when there was nothing to skip past. */
    public record Skipped(boolean ok, String lane, Long skipped, @JsonInclude(Include.NON_NULL) List<Long> order,
                          TickView tick) {
    }

    /** {@code assign}; no {@code position} for {@code --none}. */
    public record Assigned(boolean ok, long id, String lane, String previous,
                           @JsonInclude(Include.NON_NULL) Integer position, TickView tick) {
    }

    /** {@code runner} (status). */
    public record Runner(String lane, boolean enabled, boolean up, Integer pid, List<Long> running, List<Long> staged,
                         String waiting, String seen, JsonNode state, String blocked) {
    }
}
