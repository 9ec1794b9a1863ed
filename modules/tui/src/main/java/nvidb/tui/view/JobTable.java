package nvidb.tui.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import nvidb.core.api.Job;
import nvidb.core.api.Sizes;
import nvidb.tui.model.Cycles;
import nvidb.tui.model.Hits;
import nvidb.tui.model.SortKey;
import nvidb.tui.model.SweepGroups;

/**
 * The job table: one row a job, the selected one marked {@code >} and highlighted, held jobs
 * shown {@code held} with their reason where the progress goes. Columns that do not fit a narrow
 * terminal are dropped from the right.
 */
final class JobTable {
    /** A column: heading, the sort key a click on it picks (null: none), width (0: takes what is left). */
    private record Column(String title, SortKey key, int width, Function<Job, String> value) {
    }

    private JobTable() {
    }

    private static List<Column> columns(Instant now) {
        return List.of(
                new Column("ID", SortKey.ID, 6, j -> String.valueOf(j.id())),
                new Column("STATE", SortKey.STATE, 9, Job::displayState),
                new Column("PRI", SortKey.PRI, 4, j -> String.valueOf(j.priority())),
                new Column("NAME", SortKey.NAME, 18, j -> Text.clean(j.name())),
                new Column("NODE/GPU", SortKey.NODE, 14, JobTable::place),
                new Column("VRAM", SortKey.VRAM, 6, j -> j.vramMb() > 0 ? Sizes.format(j.vramMb()) : "-"),
                new Column("USED", SortKey.USED, 6, j -> j.gpuMemMb() == null ? "-" : Sizes.format(j.gpuMemMb().longValue())),
                new Column("AGE", SortKey.TIME, 7, j -> Text.age(j.createdAt(), now)),
                new Column("PROGRESS", null, 0, JobTable::progress),
                new Column("SUBMITTER", null, 18, j -> Text.clean(j.submitter() == null ? "-" : j.submitter())));
    }

    /** Where the job runs or is bound: {@code node:gpus}, the lane it waits in, its pinned node, or {@code -}. */
    static String place(Job j) {
        if (j.node() != null) {
            return j.node() + (j.gpuIds().isEmpty() ? "" : ":" + j.gpuIds().stream().map(String::valueOf)
                    .collect(Collectors.joining(",")));
        }
        if (j.lane() != null) {
            return j.lane();
        }
        return j.nodeConstraint() != null ? j.nodeConstraint() : "-";
    }

    /** The status line, or why it waits: held and its reason, a lane, or its exit. */
    static String progress(Job j) {
        if (j.held()) {
            return "held: " + Text.clean(j.heldReason());
        }
        if (j.progress() != null && !j.progress().isBlank()) {
            return Text.clean(j.progress());
        }
        if (j.waiting() != null) {
            return Text.clean(j.waiting());
        }
        if (j.state() == nvidb.core.api.JobState.PENDING && !j.dependsOn().isEmpty()) {
            return "after " + j.dependsOn().stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        if (j.state().terminal()) {
            return (j.exitCode() != null ? "exit " + j.exitCode() : "")
                    + (j.lastError() != null ? (j.exitCode() != null ? ": " : "") + Text.clean(j.lastError()) : "");
        }
        return "";
    }

    /**
     * The heading and as many rows as {@code height} allows, scrolled so the selection shows.
     * Fills {@code jobRows} and {@code headings} with screen rows counted from {@code firstRow}.
     */
    static List<Line> lines(List<Job> rows, Map<Long, SweepGroups.Group> sweeps, Long selected, SortKey sort,
                            boolean reversed, int width, int height, Instant now, int firstRow,
                            Map<Integer, Long> jobRows, List<Hits.Heading> headings) {
        List<Column> all = columns(now);
        // Fixed columns that fit, from the left; the flexible one takes the rest (at least 12 cells).
        int room = width - 1; // the last cell stays empty (AnsiWriter)
        List<Column> shown = new ArrayList<>();
        int used = 2;
        for (Column c : all) {
            int w = c.width() == 0 ? 12 : c.width();
            if (used + w + 1 > room) {
                break;
            }
            shown.add(c);
            used += w + 1;
        }
        int flex = Math.max(12, room - used + 12);
        List<Line> out = new ArrayList<>();
        Line head = new Line().add("  ");
        int x = 2;
        for (Column c : shown) {
            int w = c.width() == 0 ? flex : c.width();
            String title = c.title() + (c.key() == sort && sort != SortKey.QUEUE ? (reversed ? "^" : "v") : "");
            head.add(Text.fit(title, w) + " ", Style.HEADING);
            if (c.key() != null) {
                headings.add(new Hits.Heading(firstRow, x, x + w, c.key()));
            }
            x += w + 1;
        }
        out.add(head);
        if (rows.isEmpty()) {
            out.add(Line.of("  (no jobs)", Style.DIM));
            return out;
        }
        int visible = Math.max(1, height - 1);
        int at = selected == null ? 0 : Math.max(0, Cycles.indexOf(rows, j -> j.id() == selected));
        int top = Math.max(0, at - visible + 1); // the selection is the last row shown once it passes the first screen
        for (int i = top; i < rows.size() && out.size() < height; i++) {
            Job j = rows.get(i);
            boolean sel = selected != null && j.id() == selected;
            Line line = new Line().add(sel ? "> " : "  ").selected(sel);
            SweepGroups.Group sweep = sweeps.get(j.id());
            if (sweep != null) {
                // A folded sweep: one line from the first column on, its runs counted by state.
                line.add(Text.fit("+ " + sweep.line(), Math.max(1, room - 2)), sweepStyle(sweep));
                jobRows.put(firstRow + out.size(), j.id());
                out.add(line);
                continue;
            }
            for (Column c : shown) {
                int w = c.width() == 0 ? flex : c.width();
                Style style = c.title().equals("STATE") ? stateStyle(j) : Style.NORMAL;
                line.add(Text.fit(c.value().apply(j), w) + " ", style);
            }
            jobRows.put(firstRow + out.size(), j.id());
            out.add(line);
        }
        return out;
    }

    /** A folded sweep looks like its most urgent runs: failed ones, else running ones, else plain. */
    private static Style sweepStyle(SweepGroups.Group g) {
        if (g.states().containsKey("failed") || g.states().containsKey("lost") || g.states().containsKey("timeout")) {
            return Style.ERROR;
        }
        return g.states().containsKey("running") ? Style.GOOD : Style.NORMAL;
    }

    static Style stateStyle(Job j) {
        if (j.held()) {
            return Style.HELD;
        }
        return switch (j.state()) {
            case RUNNING -> Style.GOOD;
            case PENDING -> Style.NORMAL;
            case COMPLETED -> Style.DIM;
            case FAILED, LOST, TIMEOUT -> Style.ERROR;
            case CANCELLED -> Style.WARN;
        };
    }

    private static int indexOf(List<Job> rows, long id) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).id() == id) {
                return i;
            }
        }
        return -1;
    }
}
