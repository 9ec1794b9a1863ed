package nvidb.tui.model;

import java.util.List;
import java.util.Map;

/**
 * Where the last drawn screen put what a mouse click can pick: job, node and lane rows by screen
 * row, and the job table's column headings by their cells.
 */
public record Hits(Map<Integer, Long> jobRows, Map<Integer, String> nodeRows, Map<Integer, String> laneRows,
                   List<Heading> headings) {
    public static final Hits NONE = new Hits(Map.of(), Map.of(), Map.of(), List.of());

    public Hits {
        jobRows = Map.copyOf(jobRows);
        nodeRows = Map.copyOf(nodeRows);
        laneRows = Map.copyOf(laneRows);
        headings = List.copyOf(headings);
    }

    /** A column heading at {@code row}, columns {@code from} (inclusive) to {@code to} (exclusive). */
    public record Heading(int row, int from, int to, SortKey key) {
    }

    public SortKey headingAt(int x, int y) {
        return headings.stream().filter(h -> h.row() == y && x >= h.from() && x < h.to()).map(Heading::key)
                .findFirst().orElse(null);
    }
}
