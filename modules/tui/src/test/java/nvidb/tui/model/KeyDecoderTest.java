package nvidb.tui.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyDecoderTest {
    /** Characters as a terminal sends them; a {@code |} is a pause longer than an escape sequence's gap. */
    private static List<Key> decode(String typed) {
        Deque<Integer> chars = new ArrayDeque<>();
        typed.chars().forEach(c -> chars.add(c == '|' ? KeyDecoder.Source.TIMEOUT : c));
        KeyDecoder d = new KeyDecoder(timeout -> chars.isEmpty() ? KeyDecoder.Source.TIMEOUT : chars.poll());
        List<Key> keys = new ArrayList<>();
        while (!chars.isEmpty()) {
            Key k = d.next(0);
            if (k != null) {
                keys.add(k);
            }
        }
        return keys;
    }

    @Test
    void arrowsPagingAndShiftedArrowsInTheirXtermAndVt100Forms() {
        assertEquals(List.of(Key.of(Key.Kind.UP), Key.of(Key.Kind.DOWN), Key.of(Key.Kind.UP), Key.of(Key.Kind.PAGE_UP),
                        Key.of(Key.Kind.PAGE_DOWN), Key.of(Key.Kind.SHIFT_UP), Key.of(Key.Kind.SHIFT_DOWN),
                        Key.of(Key.Kind.HOME), Key.of(Key.Kind.END), Key.of(Key.Kind.BACK_TAB)),
                decode("\u001b[A\u001b[B\u001bOA\u001b[5~\u001b[6~\u001b[1;2A\u001b[1;2B\u001b[H\u001b[4~\u001b[Z"));
    }

    @Test
    void plainKeysTabEnterCtrlCAndALoneEscape() {
        assertEquals(List.of(Key.ch('j'), Key.of(Key.Kind.TAB), Key.of(Key.Kind.ENTER), Key.of(Key.Kind.CTRL_C),
                Key.of(Key.Kind.ESC), Key.ch('K')), decode("j\t\r\u0003\u001b|K"));
        assertEquals(List.of(Key.of(Key.Kind.ESC), Key.ch('G'), Key.ch('K')), decode("\u001bGK"),
                "Esc and a key typed right after it are two keys");
    }

    @Test
    void sgrMouseReportsArePressesAndWheelWithZeroBasedCells() {
        assertEquals(List.of(Key.mouse(Key.Kind.MOUSE_PRESS, 9, 4), Key.mouse(Key.Kind.WHEEL_UP, 0, 0),
                        Key.mouse(Key.Kind.WHEEL_DOWN, 2, 3), Key.of(Key.Kind.UNKNOWN)),
                decode("\u001b[<0;10;5M\u001b[<64;1;1M\u001b[<65;3;4M\u001b[<0;10;5m"));
    }

    @Test
    void nothingTypedIsNoKeyAndTheEndOfInputIsOne() {
        KeyDecoder idle = new KeyDecoder(t -> KeyDecoder.Source.TIMEOUT);
        assertNull(idle.next(10));
        assertEquals(Key.Kind.EOF, new KeyDecoder(t -> KeyDecoder.Source.END).next(10).kind());
    }
}
