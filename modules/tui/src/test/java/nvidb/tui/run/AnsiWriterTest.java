package nvidb.tui.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import nvidb.tui.model.Hits;
import nvidb.tui.view.Frame;
import nvidb.tui.view.Line;
import nvidb.tui.view.Style;
import org.junit.jupiter.api.Test;

class AnsiWriterTest {
    private static Frame frame(String second) {
        return new Frame(20, 3, List.of(Line.of("head", Style.HEADING),
                new Line().add("###", Style.EXTERNAL).add("===", Style.RESERVED).add("...", Style.FREE),
                Line.of(second).selected(true)), Hits.NONE);
    }

    @Test
    void colourOnlyWhenAskedAndSelectionAndHeadingsEitherWay() {
        String plain = new AnsiWriter(false).render(frame("x"));
        assertFalse(plain.matches("(?s).*\\u001b\\[[0-9;]*3[0-7][;m].*"), "no colour code without colour: " + plain);
        assertTrue(plain.contains("\u001b[0;7m"), "the selection is reverse video without colour too");
        assertTrue(plain.contains("\u001b[0;1mhead"), "headings are bold without colour too");
        String colour = new AnsiWriter(true).render(frame("x"));
        assertTrue(colour.contains("\u001b[0;31m###") && colour.contains("\u001b[0;33m===")
                && colour.contains("\u001b[0;32m..."), colour);
    }

    @Test
    void onlyChangedRowsAreRewrittenUntilTheSizeChanges() {
        AnsiWriter w = new AnsiWriter(false);
        String first = w.render(frame("a"));
        assertTrue(first.contains("\u001b[2J") && first.contains("\u001b[1;1H") && first.contains("\u001b[3;1H"), first);
        String second = w.render(frame("b"));
        assertFalse(second.contains("\u001b[1;1H") || second.contains("\u001b[2J"), second);
        assertTrue(second.contains("\u001b[3;1H"), second);
        assertEquals("", w.render(frame("b")));
        Frame wider = new Frame(30, 3, frame("b").lines(), Hits.NONE);
        assertTrue(w.render(wider).contains("\u001b[2J"), "a resize redraws everything");
    }

    @Test
    void aRowNeverReachesTheLastCell() {
        String row = new AnsiWriter(false).row(Line.of("x".repeat(50)), 20);
        assertEquals(19, row.replaceAll("\u001b\\[[0-9;]*[a-zA-Z]", "").length());
    }
}
