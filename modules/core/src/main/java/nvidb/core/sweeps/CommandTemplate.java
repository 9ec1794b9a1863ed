package nvidb.core.sweeps;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import nvidb.core.api.NvidbException;
import nvidb.core.api.ShellQuote;

/**
 * A sweep's command with its {@code {name}} placeholders ({@code {{} is a literal brace; a brace
 * that starts no {@code {identifier}} is left as it is, so {@code awk '{print $1}'} needs no escape,
 * and so is the shell's {@code ${NAME}}, such as {@code ${NVIDB_PARAM_LR}}).
 *
 * <p>Several words (the command after {@code --}) are each substituted, then quoted as a whole:
 * a value can never leave its word. One string (a shell command line, or a script) is substituted
 * as shell text, where a value that needs quoting is quoted for the place it goes: unquoted, inside
 * {@code '…'} or inside {@code "…"}. Where the text's quoting cannot be followed with certainty
 * (inside {@code $(…)} or backticks within double quotes, inside {@code $'…'}, after a here-document
 * starts) only a value that needs no quoting at all is substituted; any other is refused.
 */
final class CommandTemplate {
    static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Characters no shell context gives a meaning to: such a value is the same text quoted or not. */
    private static final Pattern INERT = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private enum Quoting { NONE, SINGLE, DOUBLE, UNKNOWN }

    /** A literal run of text, or a placeholder with the quoting in force where it stands. */
    private record Piece(String text, String name, Quoting quoting) {
    }

    private final boolean shellText;
    private final List<List<Piece>> words = new ArrayList<>();
    private final Set<String> names = new LinkedHashSet<>();
    private final Set<String> shellBraces = new LinkedHashSet<>();
    private final List<String> text;

    CommandTemplate(List<String> command) {
        if (command.isEmpty() || command.stream().allMatch(String::isBlank)) {
            throw NvidbException.usage("nothing to run: pass a command after --, or --script FILE");
        }
        this.shellText = command.size() == 1;
        this.text = List.copyOf(command);
        for (String word : command) {
            words.add(parse(word, shellText));
        }
    }

    /** The placeholders, in the order they first appear. */
    Set<String> names() {
        return names;
    }

    /** The names of the shell's {@code ${NAME}} expansions in the command: never placeholders. */
    Set<String> shellVariables() {
        return shellBraces;
    }

    /**
     * Whether the command (or script) names the environment variable {@code NVIDB_PARAM_<NAME>} of a
     * parameter, as a whole name: {@code $NVIDB_PARAM_LR}, {@code ${NVIDB_PARAM_LR}},
     * {@code os.environ["NVIDB_PARAM_LR"]}, but not {@code NVIDB_PARAM_LR2}.
     */
    boolean namesVariable(String variable) {
        Pattern whole = Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(variable) + "(?![A-Za-z0-9_])");
        return text.stream().anyMatch(w -> whole.matcher(w).find());
    }

    /** The command of one run. */
    String render(Map<String, String> values) {
        if (shellText) {
            return renderWord(words.getFirst(), values);
        }
        List<String> out = new ArrayList<>();
        for (List<Piece> word : words) {
            out.add(renderWord(word, values));
        }
        return ShellQuote.join(out);
    }

    private String renderWord(List<Piece> word, Map<String, String> values) {
        StringBuilder b = new StringBuilder();
        for (Piece p : word) {
            if (p.name() == null) {
                b.append(p.text());
                continue;
            }
            String v = values.get(p.name());
            if (!shellText || INERT.matcher(v).matches()) {
                b.append(v);
                continue;
            }
            // Not a pattern switch: that would spin a class at run time (see Rows.bind in the store).
            if (p.quoting() == Quoting.NONE) {
                b.append(ShellQuote.quote(v));
            } else if (p.quoting() == Quoting.SINGLE) {
                b.append('\'').append(ShellQuote.quote(v)).append('\'');
            } else if (p.quoting() == Quoting.DOUBLE) {
                b.append('"').append(ShellQuote.quote(v)).append('"');
            } else {
                throw NvidbException.usage("the value " + ShellQuote.quote(v) + " of parameter '" + p.name()
                        + "' needs quoting, but {" + p.name() + "} stands where nvidb cannot follow the shell's"
                        + " quoting (inside $(…) or backticks within double quotes, inside $'…', or after a"
                        + " here-document): pass the command as separate words after --, or read $"
                        + SweepPlan.variable(p.name()) + " in it");
            }
        }
        return b.toString();
    }

    /** Whether the text so far ends with an unescaped {@code $}: a brace after it opens the shell's {@code ${…}}. */
    private static boolean expansion(StringBuilder text) {
        int n = text.length();
        return n > 0 && text.charAt(n - 1) == '$' && (n < 2 || text.charAt(n - 2) != '\\');
    }

    /** Splits one word into text and placeholders, following shell quoting when it is shell text. */
    private List<Piece> parse(String word, boolean shell) {
        List<Piece> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        Quoting q = Quoting.NONE;
        boolean lost = false; // the quoting can no longer be followed, to the end of the text
        int n = word.length();
        for (int i = 0; i < n; i++) {
            char c = word.charAt(i);
            if (c == '{' && expansion(text)) {
                int close = word.indexOf('}', i + 1);
                if (close > i + 1 && NAME.matcher(word.substring(i + 1, close)).matches()) {
                    shellBraces.add(word.substring(i + 1, close)); // ${NAME}: the shell's variable
                }
            } else if (c == '{') {
                if (i + 1 < n && word.charAt(i + 1) == '{') {
                    text.append('{');
                    i++;
                    continue;
                }
                int close = word.indexOf('}', i + 1);
                if (close > i + 1 && NAME.matcher(word.substring(i + 1, close)).matches()) {
                    String name = word.substring(i + 1, close);
                    names.add(name);
                    if (!text.isEmpty()) {
                        out.add(new Piece(text.toString(), null, null));
                        text.setLength(0);
                    }
                    out.add(new Piece(null, name, lost ? Quoting.UNKNOWN : q));
                    i = close;
                    continue;
                }
            }
            text.append(c);
            if (!shell || lost) {
                continue;
            }
            char next = i + 1 < n ? word.charAt(i + 1) : 0;
            if (q == Quoting.SINGLE) {
                q = c == '\'' ? Quoting.NONE : q;
            } else if (c == '\\' && next != 0) {
                text.append(next); // an escaped character means nothing to the quoting
                i++;
            } else if (q == Quoting.DOUBLE) {
                if (c == '"') {
                    q = Quoting.NONE;
                } else if (c == '`' || (c == '$' && next == '(')) {
                    lost = true; // a new quoting context opens inside the double quotes
                }
            } else if (c == '\'') {
                q = Quoting.SINGLE;
            } else if (c == '"') {
                q = Quoting.DOUBLE;
            } else if ((c == '$' && next == '\'') || (c == '<' && next == '<') || c == '`') {
                lost = true;
            }
        }
        if (!text.isEmpty()) {
            out.add(new Piece(text.toString(), null, null));
        }
        return out;
    }
}
