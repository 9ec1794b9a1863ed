package nvidb.web;

/**
 * The one check of a request path: it names a route, never a file. Dot segments, encoded
 * slashes, backslashes and control characters are refused (400) before any route sees the path,
 * so no value taken from it can climb out of anything.
 */
final class Paths {
    private Paths() {
    }

    static String clean(String raw) {
        if (raw == null || !raw.startsWith("/")) {
            throw new Http.BadRequest("the path must start with /");
        }
        String lower = raw.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("%2e") || lower.contains("%00")
                || raw.contains("\\") || raw.contains("//")) {
            throw new Http.BadRequest("the path holds an encoded slash, a backslash, an encoded dot or an empty segment");
        }
        for (String segment : raw.split("/")) {
            if (segment.equals(".") || segment.equals("..")) {
                throw new Http.BadRequest("the path holds a . or .. segment");
            }
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 0x21 || c == 0x7f || c == '%') {
                throw new Http.BadRequest("the path holds a character that no route has");
            }
        }
        return raw;
    }
}
