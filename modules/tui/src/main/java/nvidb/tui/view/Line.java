package nvidb.tui.view;

import java.util.ArrayList;
import java.util.List;

/** One screen row: styled pieces of text; {@code selected} shows the whole row highlighted. */
public final class Line {
    /** A piece of text in one style. */
    public record Span(String text, Style style) {
    }

    private final List<Span> spans = new ArrayList<>();
    private boolean selected;

    public static Line of(String text, Style style) {
        return new Line().add(text, style);
    }

    public static Line of(String text) {
        return of(text, Style.NORMAL);
    }

    public Line add(String text, Style style) {
        if (!text.isEmpty()) {
            spans.add(new Span(text, style));
        }
        return this;
    }

    public Line add(String text) {
        return add(text, Style.NORMAL);
    }

    public Line selected(boolean on) {
        selected = on;
        return this;
    }

    public boolean selected() {
        return selected;
    }

    public List<Span> spans() {
        return List.copyOf(spans);
    }

    /** The row's text without styles (what a test or a dumb terminal sees). */
    public String text() {
        StringBuilder b = new StringBuilder();
        spans.forEach(s -> b.append(s.text()));
        return b.toString();
    }

    /** This row cut to at most {@code cells} cells, the cut piece ending in the truncation mark. */
    public Line cut(int cells) {
        if (width() <= cells) {
            return this;
        }
        Line out = new Line().selected(selected);
        int room = cells;
        for (Span s : spans) {
            if (room <= 0) {
                break;
            }
            String text = Text.width(s.text()) > room ? Text.cut(s.text(), room) : s.text();
            out.add(text, s.style());
            room -= Text.width(text);
        }
        return out;
    }

    /** Terminal cells the text takes. */
    public int width() {
        return Text.width(text());
    }
}
