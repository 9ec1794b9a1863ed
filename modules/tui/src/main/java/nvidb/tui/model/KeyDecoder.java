package nvidb.tui.model;

/**
 * Turns the characters a terminal sends into {@link Key}s: plain keys, the escape sequences of
 * arrows, paging and shifted arrows (xterm and VT100 forms), and SGR mouse reports
 * ({@code ESC [ < b ; x ; y M}). A lone ESC is told from the start of a sequence by the pause
 * after it, as every terminal program does.
 */
public final class KeyDecoder {
    /** Where characters come from; {@code read} answers {@link #TIMEOUT} when none came in time, {@link #END} at the end. */
    public interface Source {
        int TIMEOUT = -2;
        int END = -1;

        int read(long timeoutMillis);
    }

    /** How long the rest of an escape sequence may take to arrive after its ESC. */
    static final long SEQUENCE_GAP_MS = 40;

    private final Source in;
    /** A character read after an ESC that turned out to start no sequence: the next key's. */
    private int pushedBack = Source.TIMEOUT;

    public KeyDecoder(Source in) {
        this.in = in;
    }

    /** The next key, waiting at most {@code timeoutMillis} for it to begin; null when none came. */
    public Key next(long timeoutMillis) {
        int c = pushedBack != Source.TIMEOUT ? pushedBack : in.read(timeoutMillis);
        pushedBack = Source.TIMEOUT;
        if (c == Source.TIMEOUT) {
            return null;
        }
        if (c == Source.END) {
            return Key.of(Key.Kind.EOF);
        }
        return switch (c) {
            case 27 -> escape();
            case '\t' -> Key.of(Key.Kind.TAB);
            case '\r', '\n' -> Key.of(Key.Kind.ENTER);
            case 3 -> Key.of(Key.Kind.CTRL_C);
            case 127, 8 -> Key.of(Key.Kind.BACKSPACE);
            default -> c < 32 ? Key.of(Key.Kind.UNKNOWN) : Key.ch((char) c);
        };
    }

    private Key escape() {
        int c = in.read(SEQUENCE_GAP_MS);
        if (c == Source.TIMEOUT || c == Source.END) {
            return Key.of(Key.Kind.ESC);
        }
        if (c == 'O') {
            int f = in.read(SEQUENCE_GAP_MS);
            if (f < 0) {
                pushedBack = 'O';
                return Key.of(Key.Kind.ESC);
            }
            return finalKey("", (char) f);
        }
        if (c != '[') {
            pushedBack = c; // Esc, then a key typed quickly after it (or Alt+key): both count
            return Key.of(Key.Kind.ESC);
        }
        StringBuilder params = new StringBuilder();
        while (true) {
            int p = in.read(SEQUENCE_GAP_MS);
            if (p < 0) {
                return Key.of(Key.Kind.UNKNOWN);
            }
            if (p >= 0x40 && p <= 0x7e) {
                return finalKey(params.toString(), (char) p);
            }
            if (params.length() > 32) {
                return Key.of(Key.Kind.UNKNOWN);
            }
            params.append((char) p);
        }
    }

    /** The key of a CSI (or SS3) sequence with these parameters and final character. */
    static Key finalKey(String params, char f) {
        if (params.startsWith("<")) {
            return mouse(params.substring(1), f);
        }
        boolean shift = params.endsWith(";2");
        return switch (f) {
            case 'A' -> Key.of(shift ? Key.Kind.SHIFT_UP : Key.Kind.UP);
            case 'B' -> Key.of(shift ? Key.Kind.SHIFT_DOWN : Key.Kind.DOWN);
            case 'C' -> Key.of(Key.Kind.RIGHT);
            case 'D' -> Key.of(Key.Kind.LEFT);
            case 'H' -> Key.of(Key.Kind.HOME);
            case 'F' -> Key.of(Key.Kind.END);
            case 'Z' -> Key.of(Key.Kind.BACK_TAB);
            case '~' -> switch (params) {
                case "5" -> Key.of(Key.Kind.PAGE_UP);
                case "6" -> Key.of(Key.Kind.PAGE_DOWN);
                case "1", "7" -> Key.of(Key.Kind.HOME);
                case "4", "8" -> Key.of(Key.Kind.END);
                default -> Key.of(Key.Kind.UNKNOWN);
            };
            default -> Key.of(Key.Kind.UNKNOWN);
        };
    }

    /** An SGR mouse report {@code b;x;y} ending in M (press) or m (release); x and y are 1-based. */
    private static Key mouse(String params, char f) {
        String[] p = params.split(";");
        if (p.length != 3 || (f != 'M' && f != 'm')) {
            return Key.of(Key.Kind.UNKNOWN);
        }
        int b;
        int x;
        int y;
        try {
            b = Integer.parseInt(p[0]);
            x = Integer.parseInt(p[1]) - 1;
            y = Integer.parseInt(p[2]) - 1;
        } catch (NumberFormatException e) {
            return Key.of(Key.Kind.UNKNOWN);
        }
        if (b == 64) {
            return Key.mouse(Key.Kind.WHEEL_UP, x, y);
        }
        if (b == 65) {
            return Key.mouse(Key.Kind.WHEEL_DOWN, x, y);
        }
        // A left press; releases, drags and the other buttons do nothing here.
        return b == 0 && f == 'M' ? Key.mouse(Key.Kind.MOUSE_PRESS, x, y) : Key.of(Key.Kind.UNKNOWN);
    }
}
