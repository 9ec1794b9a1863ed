package nvidb.tui.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Colour only where the terminal has it and never with NO_COLOR (https://no-color.org). */
class ColourTest {
    @Test
    void noColourForbidsItWhateverTheTerminalSays() {
        assertFalse(TerminalSession.colour(Map.of("NO_COLOR", "1", "TERM", "xterm-256color"), null));
        assertTrue(TerminalSession.colour(Map.of("NO_COLOR", "", "TERM", "xterm-256color"), null),
                "an empty NO_COLOR does not count");
    }

    @Test
    void aTerminalWithoutColoursGetsNone() {
        assertTrue(TerminalSession.colour(Map.of("TERM", "tmux-256color"), null));
        assertFalse(TerminalSession.colour(Map.of("TERM", "vt100"), null));
        assertFalse(TerminalSession.colour(Map.of(), null));
    }
}
