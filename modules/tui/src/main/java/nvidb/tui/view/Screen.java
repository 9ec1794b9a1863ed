package nvidb.tui.view;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Alert;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.tui.model.Hits;
import nvidb.tui.model.KeyHelp;
import nvidb.tui.model.LowerPane;
import nvidb.tui.model.Pane;
import nvidb.tui.model.Snapshot;
import nvidb.tui.model.Status;
import nvidb.tui.model.TuiModel;

/**
 * Lays the whole screen out from the model, top to bottom: the header, open alerts (they lead),
 * the node cards, the main pane (jobs, nodes or lanes), the detail or log pane, the status line.
 * Pure: the same model and size always give the same frame, so it is tested without a terminal.
 */
public final class Screen {
    /** How long an outcome stays in the status line before the key hints come back. */
    static final Duration STATUS_SHOWN = Duration.ofSeconds(15);

    private Screen() {
    }

    public static Frame draw(TuiModel m, int width, int height, Instant now) {
        Map<Integer, Long> jobRows = new HashMap<>();
        Map<Integer, String> nodeRows = new HashMap<>();
        Map<Integer, String> laneRows = new HashMap<>();
        List<Hits.Heading> headings = new ArrayList<>();
        Snapshot s = m.snapshot();
        List<Line> top = new ArrayList<>();
        top.add(header(m, s, width, now));
        top.addAll(UsersLine.lines(s.users()));
        top.addAll(alerts(s, width));
        int bottom = 1;
        int rest = height - top.size() - bottom;
        int lowerHeight = m.lower() == LowerPane.NONE || m.help() ? 0 : Math.max(4, rest * 2 / 5);
        int main = Math.max(0, rest - lowerHeight);
        List<Line> body = new ArrayList<>();
        if (m.help()) {
            body.addAll(help());
        } else {
            String selectedNode = m.pane() == Pane.NODES ? m.selectedNode().map(n -> n.node().name()).orElse(null) : null;
            List<Line> cards = NodeCards.lines(s.nodes(), m.procs(), selectedNode, width, now, nodeRows, top.size());
            if (m.pane() == Pane.NODES) {
                body.addAll(scrolledTo(cards, nodeRows, selectedNode, main, top.size()));
            } else {
                int cap = Math.max(2, main / 3);
                if (cards.size() > cap) {
                    int hidden = countNodes(nodeRows, top.size() + cap - 1, top.size() + cards.size());
                    cards = new ArrayList<>(cards.subList(0, cap - 1));
                    cards.add(Line.of("   ... " + hidden + " more node(s): Tab to the nodes pane", Style.DIM));
                    nodeRows.keySet().removeIf(r -> r >= top.size() + cap - 1);
                }
                body.addAll(cards);
                int first = top.size() + body.size();
                if (m.pane() == Pane.JOBS) {
                    nvidb.tui.model.SweepGroups grouped = m.sweepGroups();
                    body.addAll(JobTable.lines(grouped.rows(), grouped.groups(), m.selectedJobId(), m.sort(), m.reversed(),
                            width, main - body.size(), now, first, jobRows, headings));
                } else {
                    String lane = m.selectedLane().map(l -> l.lane().name()).orElse(null);
                    body.addAll(LaneTable.lines(s.lanes(), lane, width, main - body.size(), first, laneRows));
                }
            }
        }
        List<Line> lines = new ArrayList<>(top);
        lines.addAll(body.subList(0, Math.min(body.size(), main)));
        while (lines.size() < top.size() + main) {
            lines.add(Line.of(""));
        }
        if (lowerHeight > 0) {
            Job job = m.selected().orElse(null);
            lines.addAll(LowerView.lines(m.lower(), job, m.detail(), m.log(), m.lowerError(), s.jobsById(),
                    m.lowerScroll(), width, lowerHeight, now));
            while (lines.size() < height - bottom) {
                lines.add(Line.of(""));
            }
        }
        lines.add(statusLine(m, width, now));
        // Every row ends a cell short of the edge (see AnsiWriter): the frame is what the screen shows.
        List<Line> exact = lines.subList(0, Math.min(lines.size(), height)).stream().map(l -> l.cut(width - 1)).toList();
        return new Frame(width, height, exact, new Hits(jobRows, nodeRows, laneRows, headings));
    }

    private static Line header(TuiModel m, Snapshot s, int width, Instant now) {
        long running = s.active().stream().filter(j -> j.state() == JobState.RUNNING).count();
        long held = s.active().stream().filter(Job::held).count();
        long pending = s.active().size() - running - held;
        Line line = new Line().add(" nvidb queue", Style.BOLD)
                .add("  last tick " + (s.lastTickAt() == null ? "never" : Text.age(s.lastTickAt(), now) + " ago"))
                .add(m.ticking() ? " (passing...)" : "", Style.DIM)
                .add("  auto-tick " + (m.autoTick() ? "every " + seconds(m.refreshSeconds()) : "off"))
                .add("  running " + running, running > 0 ? Style.GOOD : Style.NORMAL)
                .add(" . pending " + pending)
                .add(held > 0 ? " . held " + held : "", Style.HELD);
        StringBuilder panes = new StringBuilder();
        for (Pane p : Pane.values()) {
            String name = p.name().toLowerCase(java.util.Locale.ROOT);
            panes.append(p == m.pane() ? "[" + name.toUpperCase(java.util.Locale.ROOT) + "]" : " " + name + " ");
        }
        String right = panes + "  ? help ";
        String db = "  " + s.database();
        if (!s.database().isEmpty() && width - 1 - line.width() - right.length() >= db.length() + 2) {
            line.add(db, Style.DIM); // which queue this is, where there is room for it
        }
        int gap = width - 1 - line.width() - right.length(); // the last cell stays empty (AnsiWriter)
        if (gap >= 2) {
            line.add(" ".repeat(gap)).add(right, Style.DIM);
        }
        return line;
    }

    private static String seconds(double s) {
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + "s";
    }

    /** Open alerts lead the screen: a count and the newest three. */
    private static List<Line> alerts(Snapshot s, int width) {
        List<Line> out = new ArrayList<>();
        if (s.openAlertCount() == 0) {
            return out;
        }
        out.add(Line.of(" ALERTS  " + s.openAlertCount() + " open (A acknowledges all)", Style.ERROR));
        List<Alert> newest = s.openAlerts().reversed().stream().limit(3).toList();
        for (Alert a : newest) {
            out.add(new Line().add("   #" + a.id() + " ").add(a.severity(), "error".equals(a.severity()) ? Style.ERROR : Style.WARN)
                    .add(" " + a.kind() + "  " + Text.cut(Text.clean(a.title()), Math.max(10, width - 40))));
        }
        return out;
    }

    private static List<Line> help() {
        List<Line> out = new ArrayList<>();
        out.add(Line.of(" Keys (any key closes this help)", Style.HEADING));
        for (KeyHelp.Entry e : KeyHelp.ENTRIES) {
            out.add(new Line().add("   " + Text.fit(e.keys(), 14), Style.BOLD).add(e.what()));
        }
        out.add(Line.of(""));
        out.add(Line.of(" Bars: # memory of processes the queue did not start, = the queue's reservations, . free",
                Style.DIM));
        return out;
    }

    /** The node cards from the selected node on when they do not all fit. */
    private static List<Line> scrolledTo(List<Line> cards, Map<Integer, String> nodeRows, String node, int rows, int first) {
        if (cards.size() <= rows || node == null) {
            return cards;
        }
        int start = 0;
        for (int i = 0; i < cards.size(); i++) {
            if (node.equals(nodeRows.get(first + i))) {
                start = i;
                break;
            }
        }
        int from = Math.max(0, Math.min(start, cards.size() - rows));
        Map<Integer, String> moved = new HashMap<>();
        nodeRows.forEach((r, n) -> {
            if (r - first >= from) {
                moved.put(r - from, n);
            }
        });
        nodeRows.clear();
        nodeRows.putAll(moved);
        return cards.subList(from, cards.size());
    }

    private static int countNodes(Map<Integer, String> nodeRows, int from, int to) {
        return (int) nodeRows.entrySet().stream().filter(e -> e.getKey() >= from && e.getKey() < to)
                .map(Map.Entry::getValue).distinct().count();
    }

    private static Line statusLine(TuiModel m, int width, Instant now) {
        Status st = m.status();
        if (m.refreshError() != null) {
            return Line.of(" " + Text.cut("queue: " + Text.clean(m.refreshError()), width - 2), Style.ERROR);
        }
        Long armed = m.cancelArmed(now);
        if (!st.text().isEmpty() && (armed != null || st.at() == null || now.isBefore(st.at().plus(STATUS_SHOWN)))) {
            return Line.of(" " + Text.cut(Text.clean(st.text()), width - 2), st.error() ? Style.ERROR : Style.BOLD);
        }
        String hint = " q quit  ? help  Tab pane  Enter detail  L log  c c cancel  K/J move  f filter: "
                + m.filter().label() + "  s sort: " + m.sort().label() + (m.reversed() ? " (reversed)" : "")
                + "  p procs: " + m.procs().label();
        return Line.of(Text.cut(hint, width), Style.DIM);
    }
}
