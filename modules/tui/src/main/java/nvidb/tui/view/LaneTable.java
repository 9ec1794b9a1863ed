package nvidb.tui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import nvidb.core.api.Job;
import nvidb.core.api.LaneQueries.LaneView;

/**
 * The lanes view: each GPU's lane, its state, its runner, what runs and what comes next, why it
 * waits; then the selected lane's queue in running order.
 */
final class LaneTable {
    private LaneTable() {
    }

    static List<Line> lines(List<LaneView> lanes, String selected, int width, int height, int firstRow,
                            Map<Integer, String> laneRows) {
        List<Line> out = new ArrayList<>();
        out.add(Line.of("  " + Text.fit("LANE", 16) + " " + Text.fit("STATE", 8) + " " + Text.fit("RUNNER", 6) + " "
                + Text.fit("RUN", 3) + " " + Text.fit("QUEUED", 6) + " " + Text.fit("NOW", 22) + " " + Text.fit("NEXT", 22)
                + " BLOCKED", Style.HEADING));
        if (lanes.isEmpty()) {
            out.add(Line.of("  no lanes yet: a pass (t) discovers the GPUs", Style.DIM));
            return out;
        }
        LaneView chosen = null;
        for (LaneView l : lanes) {
            boolean sel = l.lane().name().equals(selected);
            chosen = sel ? l : chosen;
            String state = l.lane().paused() ? "paused" : l.nodeState();
            String runner = !l.lane().runner() ? "off" : l.runnerUp() ? "up" : l.running().isEmpty() && l.queued().isEmpty() ? "-" : "down";
            Line line = new Line().add(sel ? "> " : "  ").selected(sel)
                    .add(Text.fit(l.lane().name(), 16) + " " + Text.fit(state, 8) + " " + Text.fit(runner, 6) + " "
                            + Text.right(String.valueOf(l.running().size()), 3) + " "
                            + Text.right(String.valueOf(l.queued().size()), 6) + " "
                            + Text.fit(l.running().isEmpty() ? "-" : label(l.running().get(0)), 22) + " "
                            + Text.fit(l.queued().isEmpty() ? "-" : label(l.queued().get(0)), 22) + " ")
                    .add(l.blocked() == null ? "" : Text.clean(l.blocked()), Style.WARN);
            laneRows.put(firstRow + out.size(), l.lane().name());
            out.add(line);
            if (out.size() >= height) {
                return out.subList(0, height);
            }
        }
        if (chosen != null && out.size() + 2 < height) {
            out.add(Line.of(""));
            out.add(Line.of("  queued in " + chosen.lane().name() + " (in order): " + (chosen.queued().isEmpty() ? "none"
                    : chosen.queued().stream().map(j -> "#" + j.id() + (j.held() ? " (held)" : ""))
                            .collect(Collectors.joining("  "))), Style.DIM));
        }
        return out;
    }

    private static String label(Job j) {
        return j.id() + (j.name().isEmpty() ? "" : " " + Text.clean(j.name()));
    }
}
