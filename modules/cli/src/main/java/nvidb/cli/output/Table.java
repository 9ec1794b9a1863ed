package nvidb.cli.output;

import java.util.ArrayList;
import java.util.List;

/**
 * An aligned text table: columns two spaces apart, widths in terminal cells, trailing spaces
 * stripped, {@code (none)} when empty.
 */
public final class Table {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String... headers) {
        this.headers = List.of(headers);
    }

    public Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c == null ? "-" : String.valueOf(c));
        }
        rows.add(r);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public String render(String indent) {
        if (rows.isEmpty()) {
            return indent + "(none)";
        }
        int[] widths = new int[headers.size()];
        for (int i = 0; i < headers.size(); i++) {
            widths[i] = cells(headers.get(i));
        }
        for (List<String> r : rows) {
            for (int i = 0; i < r.size() && i < widths.length; i++) {
                widths[i] = Math.max(widths[i], cells(r.get(i)));
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, indent, headers, widths);
        for (List<String> r : rows) {
            sb.append('\n');
            line(sb, indent, r, widths);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String indent, List<String> cells, int[] widths) {
        StringBuilder l = new StringBuilder(indent);
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            l.append(c);
            if (i < cells.size() - 1) {
                l.append(" ".repeat(Math.max(0, widths[i] - cells(c)) + 2));
            }
        }
        sb.append(l.toString().stripTrailing());
    }

    /** Terminal cells a string takes: East-Asian wide characters count two. */
    static int cells(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            n += wide(cp) ? 2 : 1;
            i += Character.charCount(cp);
        }
        return n;
    }

    private static boolean wide(int cp) {
        return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3)
                || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60)
                || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x20000 && cp <= 0x3FFFD);
    }

    /** Cuts text to {@code n} cells with an ellipsis, whitespace collapsed to single spaces. */
    public static String clip(String s, int n) {
        if (s == null) {
            return "-";
        }
        String one = s.replaceAll("\\s+", " ").strip();
        if (cells(one) <= n) {
            return one;
        }
        StringBuilder sb = new StringBuilder();
        int used = 0;
        for (int i = 0; i < one.length(); ) {
            int cp = one.codePointAt(i);
            int w = wide(cp) ? 2 : 1;
            if (used + w > n - 1) {
                break;
            }
            sb.appendCodePoint(cp);
            used += w;
            i += Character.charCount(cp);
        }
        return sb + "…";
    }
}
