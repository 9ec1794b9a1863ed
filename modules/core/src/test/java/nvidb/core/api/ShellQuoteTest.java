package nvidb.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Quoting is checked by a real shell: the joined words go through {@code sh -c} and must come
 * back exactly, and nothing inside them may run.
 */
class ShellQuoteTest {
    @TempDir
    Path tmp;

    private static final List<String> HOSTILE = List.of(
            "plain", "with space", "", "it's", "\"double\"", "'", "''", "\"", "$(touch pwned-subst)",
            "`touch pwned-backtick`", "$HOME", "${HOME}", "line1\nline2", "trailing\n", "\n", "tab\there",
            "a;touch pwned-semicolon", "a && touch pwned-and", "a | cat", "> pwned-redirect", "*", "?", "[a]", "~",
            "~/x", "#not a comment", "!", "\\", "back\\slash", "-n", "--", "%s", "semi;", "x=$(id)", "ünïcødé",
            "emoji 🚀", "'$(touch pwned-quoted)'", "\"$(touch pwned-dq)\"", "a'b'c\"d\"e");

    @Test
    void hostileWordsComeBackExactlyThroughARealShell() throws Exception {
        String script = "printf '%s\\0' " + ShellQuote.join(HOSTILE);
        assertEquals(HOSTILE, runSh(script));
        try (var files = Files.list(tmp)) {
            assertEquals(List.of(), files.toList(), "nothing inside a quoted word ran");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"it's", "$(touch pwned)", "`touch pwned`", "a\nb", "", "x y", "\"", "'\"'\"'"})
    void eachQuotedWordIsOneArgument(String word) throws Exception {
        assertEquals(List.of(word), runSh("printf '%s\\0' " + ShellQuote.quote(word)));
        assertFalse(Files.exists(tmp.resolve("pwned")));
    }

    @Test
    void safeWordsStayReadable() {
        assertEquals("plain", ShellQuote.quote("plain"));
        assertEquals("/srv/nvidb/bin/nvidb", ShellQuote.quote("/srv/nvidb/bin/nvidb"));
        assertEquals("--db-path=/x.db", ShellQuote.quote("--db-path=/x.db"));
        assertEquals("''", ShellQuote.quote(""));
        assertEquals("'a b'", ShellQuote.quote("a b"));
        assertEquals("'it'\"'\"'s'", ShellQuote.quote("it's"));
        assertEquals("job wait 4 --timeout 1", ShellQuote.join(List.of("job", "wait", "4", "--timeout", "1")));
        assertTrue(ShellQuote.quote("$(id)").startsWith("'"));
    }

    /** Runs {@code sh -c script} in the temp folder and splits its NUL-terminated output. */
    private List<String> runSh(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", script).directory(tmp.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(out, StandardCharsets.UTF_8));
        String text = new String(out, StandardCharsets.UTF_8);
        assertTrue(text.isEmpty() || text.endsWith("\0"), "printf output: " + text);
        List<String> words = new ArrayList<>(Arrays.asList(text.split("\0", -1)));
        words.removeLast(); // after the final terminator
        return words;
    }
}
