package nvidb.tui.model;

/**
 * One key press or mouse event, decoded from what the terminal sent.
 *
 * @param ch   the character, for {@link Kind#CHAR}
 * @param x    the mouse column, 0-based, for mouse kinds
 * @param y    the mouse row, 0-based, for mouse kinds
 */
public record Key(Kind kind, char ch, int x, int y) {
    public enum Kind {
        CHAR, UP, DOWN, LEFT, RIGHT, PAGE_UP, PAGE_DOWN, HOME, END, SHIFT_UP, SHIFT_DOWN, TAB, BACK_TAB, ENTER,
        ESC, CTRL_C, BACKSPACE, MOUSE_PRESS, WHEEL_UP, WHEEL_DOWN, EOF, UNKNOWN
    }

    public static Key of(Kind kind) {
        return new Key(kind, '\0', -1, -1);
    }

    public static Key ch(char c) {
        return new Key(Kind.CHAR, c, -1, -1);
    }

    public static Key mouse(Kind kind, int x, int y) {
        return new Key(kind, '\0', x, y);
    }

    public boolean is(char c) {
        return kind == Kind.CHAR && ch == c;
    }
}
