package nvidb.core.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The store's small columns (a job's env, ids, tags, GPUs) in the exact compact form {@link Json}
 * writes them, read without Jackson: the first Jackson parser of a process initialises {@code
 * BigDecimal}, whose tables take ~10 ms to build before the JIT helps, and a submit or a
 * {@code job show} reads one such column and nothing else. Anything else (blanks, numbers that are
 * not small integers, unusual escapes, control characters) answers null, and {@link Json} reads
 * it with Jackson as before, so both always agree (JsonCodecPropertyTest).
 */
final class FlatJson {
    private static final int MAX_DIGITS = 18; // a long without overflow

    private final String text;
    private int at;

    private FlatJson(String text) {
        this.text = text;
    }

    /** {@code {"k":"v",…}}: a repeated key keeps its first place and takes the last value, as Jackson reads it. */
    static Map<String, String> stringMap(String text) {
        FlatJson p = new FlatJson(text);
        if (!p.take('{')) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (p.take('}')) {
            return p.end() ? out : null;
        }
        do {
            String key = p.string();
            if (key == null || !p.take(':')) {
                return null;
            }
            String value = p.string();
            if (value == null) {
                return null;
            }
            out.put(key, value);
        } while (p.take(','));
        return p.take('}') && p.end() ? out : null;
    }

    /** {@code [1,-2,…]} of integers of at most 18 digits. */
    static List<Long> longs(String text) {
        return array(text, FlatJson::integer);
    }

    /** {@code ["a","b",…]}. */
    static List<String> strings(String text) {
        return array(text, FlatJson::string);
    }

    /** {@code [e,e,…]} of what {@code element} reads (null: not one of its elements). */
    private static <T> List<T> array(String text, Function<FlatJson, T> element) {
        FlatJson p = new FlatJson(text);
        if (!p.take('[')) {
            return null;
        }
        List<T> out = new ArrayList<>();
        if (p.take(']')) {
            return p.end() ? out : null;
        }
        do {
            T value = element.apply(p);
            if (value == null) {
                return null;
            }
            out.add(value);
        } while (p.take(','));
        return p.take(']') && p.end() ? out : null;
    }

    private boolean take(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private boolean end() {
        return at == text.length();
    }

    private Long integer() {
        int start = at;
        if (at < text.length() && text.charAt(at) == '-') {
            at++;
        }
        int digits = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        int count = at - digits;
        if (count == 0 || count > MAX_DIGITS || (count > 1 && text.charAt(digits) == '0')) {
            return null; // none, too long for a long, or a leading zero (which Jackson refuses)
        }
        return Long.parseLong(text, start, at, 10);
    }

    private String string() {
        if (!take('"')) {
            return null;
        }
        StringBuilder out = null;
        int start = at;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == '"') {
                String s = out == null ? text.substring(start, at) : out.append(text, start, at).toString();
                at++;
                return s;
            }
            if (c < 0x20) {
                return null;
            }
            if (c == '\\') {
                if (out == null) {
                    out = new StringBuilder();
                }
                out.append(text, start, at);
                int escaped = escape();
                if (escaped < 0) {
                    return null;
                }
                out.append((char) escaped);
                start = at;
                continue;
            }
            at++;
        }
        return null;
    }

    /** The character of the escape at {@code at} (moving past it); -1 for one this reader leaves to Jackson. */
    private int escape() {
        if (at + 1 >= text.length()) {
            return -1;
        }
        char c = text.charAt(at + 1);
        at += 2;
        return switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> unicode();
            default -> -1;
        };
    }

    private int unicode() {
        if (at + 4 > text.length()) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(at + i), 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        at += 4;
        return value;
    }
}
