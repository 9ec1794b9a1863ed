package nvidb.tui.run;

import java.util.ArrayList;
import java.util.List;
import nvidb.tui.view.Frame;
import nvidb.tui.view.Line;
import nvidb.tui.view.Style;

/**
 * Turns frames into what a VT100/xterm-compatible terminal understands, rewriting only the rows
 * that changed since the last frame (all of them after a resize). Colour only when told so;
 * without it the selection is still reverse video and headings bold, which are not colours.
 */
final class AnsiWriter {
    static final String ESC = "\u001b[";

    private final boolean colour;
    private List<String> previous = List.of();
    private int previousWidth = -1;
    private int previousHeight = -1;

    AnsiWriter(boolean colour) {
        this.colour = colour;
    }

    /** Forgets what the screen shows, so the next frame is written whole (after a resize or a clear). */
    void invalidate() {
        previous = List.of();
    }

    /** The bytes that bring the screen from the last frame to this one. */
    String render(Frame f) {
        StringBuilder out = new StringBuilder();
        boolean full = f.width() != previousWidth || f.height() != previousHeight || previous.isEmpty();
        if (full) {
            out.append(ESC).append("0m").append(ESC).append("2J");
        }
        List<String> rows = new ArrayList<>();
        for (int r = 0; r < f.height(); r++) {
            Line line = r < f.lines().size() ? f.lines().get(r) : Line.of("");
            String row = row(line, f.width());
            rows.add(row);
            if (full || r >= previous.size() || !previous.get(r).equals(row)) {
                out.append(ESC).append(r + 1).append(";1H").append(row);
            }
        }
        previous = rows;
        previousWidth = f.width();
        previousHeight = f.height();
        return out.toString();
    }

    /**
     * One row, exactly {@code width} cells. The last cell of the last row is never written on some
     * terminals without scrolling, so every row stops one cell short and clears the rest.
     */
    String row(Line line, int width) {
        StringBuilder b = new StringBuilder();
        Line cut = line.cut(Math.max(0, width - 1));
        for (Line.Span span : cut.spans()) {
            b.append(ESC).append(sgr(span.style(), line.selected())).append('m').append(span.text());
        }
        int room = Math.max(0, width - 1) - cut.width();
        if (line.selected() && room > 0) {
            b.append(ESC).append("0;7m").append(" ".repeat(room));
        }
        return b.append(ESC).append("0m").append(ESC).append('K').toString();
    }

    private String sgr(Style style, boolean selected) {
        String base = selected ? "0;7" : "0";
        String attr = switch (style) {
            case BOLD, HEADING -> ";1";
            case DIM -> ";2";
            case ERROR -> colour ? ";31" : ";1";
            default -> "";
        };
        if (!colour) {
            return base + attr;
        }
        String fg = switch (style) {
            case WARN, RESERVED -> ";33";
            case GOOD, FREE -> ";32";
            case HELD -> ";35";
            case EXTERNAL -> ";31";
            case HEADING -> ";36";
            default -> "";
        };
        return base + attr + fg;
    }
}
