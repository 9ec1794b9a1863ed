package nvidb.cli.forward;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The words a POSIX shell would make of a command line, without a shell: what the shared account's
 * login entry reads {@code SSH_ORIGINAL_COMMAND} with (the line nvidb's own clients send, quoted by
 * {@link nvidb.core.api.ShellQuote}). Nothing is run: single and double quotes, backslashes and
 * parameter expansion ({@code $NAME}, {@code ${NAME}}, {@code ${NAME:-word}}) become the word's
 * characters; {@code ;}, {@code |}, {@code ||}, {@code &}, {@code &&} and redirections are
 * operators of their own. Command substitution and globbing are refused: nvidb never sends them.
 */
final class ShellWords {
    /** One token: a word, or an operator ({@code operator} true) such as {@code ;} or {@code >&2}. */
    record Token(String text, boolean operator) {
    }

    private static final Set<Character> OPERATOR_START = Set.of(';', '|', '&', '<', '>');

    private final String line;
    private final Map<String, String> vars;
    private int at;

    private ShellWords(String line, Map<String, String> vars) {
        this.line = line;
        this.vars = vars;
    }

    /**
     * @param vars what {@code $NAME} expands to (the login's environment); an unset name is empty
     * @throws IllegalArgumentException naming what a shell would do that this does not
     */
    static List<Token> split(String line, Map<String, String> vars) {
        return new ShellWords(line, vars).tokens();
    }

    private List<Token> tokens() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            while (at < line.length() && (line.charAt(at) == ' ' || line.charAt(at) == '\t' || line.charAt(at) == '\n')) {
                at++;
            }
            if (at >= line.length()) {
                return tokens;
            }
            char c = line.charAt(at);
            if (c == '#') {
                return tokens; // a comment to the end of the line
            }
            tokens.add(Character.isDigit(c) && redirectionAfterDigits() || OPERATOR_START.contains(c) ? operator() : word());
        }
    }

    /** {@code 2>&1}, {@code 2>/dev/null}: a file descriptor number starts a redirection. */
    private boolean redirectionAfterDigits() {
        int i = at;
        while (i < line.length() && Character.isDigit(line.charAt(i))) {
            i++;
        }
        return i < line.length() && (line.charAt(i) == '>' || line.charAt(i) == '<');
    }

    private Token operator() {
        int start = at;
        while (at < line.length() && Character.isDigit(line.charAt(at))) {
            at++;
        }
        char c = line.charAt(at++);
        if (at < line.length()) {
            char next = line.charAt(at);
            if ((c == '|' || c == '&' || c == '>' || c == '<' || c == ';') && next == c || (c == '>' || c == '<') && next == '&') {
                at++;
            }
        }
        if (line.charAt(at - 1) == '&' && (c == '>' || c == '<')) {
            while (at < line.length() && (Character.isDigit(line.charAt(at)) || line.charAt(at) == '-')) {
                at++;
            }
        }
        return new Token(line.substring(start, at), true);
    }

    private Token word() {
        StringBuilder w = new StringBuilder();
        while (at < line.length()) {
            char c = line.charAt(at);
            if (c == ' ' || c == '\t' || c == '\n' || OPERATOR_START.contains(c)) {
                break;
            }
            at++;
            switch (c) {
                case '\'' -> {
                    int end = line.indexOf('\'', at);
                    if (end < 0) {
                        throw new IllegalArgumentException("a single quote that is never closed");
                    }
                    w.append(line, at, end);
                    at = end + 1;
                }
                case '"' -> doubleQuoted(w);
                case '\\' -> {
                    if (at < line.length()) {
                        char escaped = line.charAt(at++);
                        if (escaped != '\n') {
                            w.append(escaped);
                        }
                    }
                }
                case '$' -> w.append(expansion());
                case '`' -> throw new IllegalArgumentException("command substitution (`…`)");
                case '*', '?', '[' -> throw new IllegalArgumentException("a pattern (" + c + ") to expand to file names");
                default -> w.append(c);
            }
        }
        return new Token(w.toString(), false);
    }

    private void doubleQuoted(StringBuilder w) {
        while (true) {
            if (at >= line.length()) {
                throw new IllegalArgumentException("a double quote that is never closed");
            }
            char c = line.charAt(at++);
            switch (c) {
                case '"' -> {
                    return;
                }
                case '\\' -> {
                    char next = at < line.length() ? line.charAt(at) : '\\';
                    if ("$`\"\\\n".indexOf(next) >= 0) {
                        at++;
                        if (next != '\n') {
                            w.append(next);
                        }
                    } else {
                        w.append('\\');
                    }
                }
                case '$' -> w.append(expansion());
                case '`' -> throw new IllegalArgumentException("command substitution (`…`)");
                default -> w.append(c);
            }
        }
    }

    /** After a {@code $}: {@code NAME}, {@code {NAME}} or {@code {NAME:-word}}; a lone {@code $} is itself. */
    private String expansion() {
        if (at >= line.length()) {
            return "$";
        }
        char c = line.charAt(at);
        if (c == '(') {
            throw new IllegalArgumentException("command substitution ($(…))");
        }
        if (c == '{') {
            int end = line.indexOf('}', at);
            if (end < 0) {
                throw new IllegalArgumentException("a ${ that is never closed");
            }
            String inside = line.substring(at + 1, end);
            at = end + 1;
            int dash = inside.indexOf(":-");
            String name = dash < 0 ? inside : inside.substring(0, dash);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("a parameter expansion other than ${NAME} or ${NAME:-word}: ${" + inside + "}");
            }
            String value = vars.get(name);
            if ((value == null || value.isEmpty()) && dash >= 0) {
                return new ShellWords(inside.substring(dash + 2), vars).defaultWord();
            }
            return value == null ? "" : value;
        }
        int start = at;
        while (at < line.length() && (Character.isLetterOrDigit(line.charAt(at)) || line.charAt(at) == '_')) {
            at++;
        }
        if (start == at) {
            return "$";
        }
        String value = vars.get(line.substring(start, at));
        return value == null ? "" : value;
    }

    /** The word of {@code ${NAME:-word}}: expanded as the inside of double quotes. */
    private String defaultWord() {
        StringBuilder w = new StringBuilder();
        while (at < line.length()) {
            char c = line.charAt(at++);
            w.append(c == '$' ? expansion() : String.valueOf(c));
        }
        return w.toString();
    }
}
