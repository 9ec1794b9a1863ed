package nvidb.tui.view;

import java.util.List;
import nvidb.tui.model.Hits;

/** One whole screen: exactly {@code height} rows for a terminal {@code width} cells wide, and what a click there picks. */
public record Frame(int width, int height, List<Line> lines, Hits hits) {
    public Frame {
        lines = List.copyOf(lines);
    }

    /** The screen as plain text, one row a line (tests; what capture-pane shows). */
    public String text() {
        StringBuilder b = new StringBuilder();
        lines.forEach(l -> b.append(l.text()).append('\n'));
        return b.toString();
    }
}
