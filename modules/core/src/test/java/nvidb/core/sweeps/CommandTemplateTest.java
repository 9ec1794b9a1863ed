package nvidb.core.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile values through a real shell: whatever a value holds (;, $(), backticks, quotes, spaces,
 * newlines), the rendered command gives the program exactly that value, and runs nothing of it.
 */
class CommandTemplateTest {
    private static final List<String> HOSTILE = List.of("a b", "x; touch PWNED", "$(touch PWNED)", "`touch PWNED`",
            "it's", "say \"hi\"", "back\\slash", "new\nline", "*", "'$(touch PWNED)'", "\"$(touch PWNED)\"", "--", "");

    @TempDir
    Path tmp;

    /** Runs {@code command} in sh inside the temp folder and returns its stdout. */
    private String sh(String command) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", command).directory(tmp.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    private void check(List<String> template, String expectedPrefix, String expectedSuffix) throws Exception {
        CommandTemplate t = new CommandTemplate(template);
        for (String v : HOSTILE) {
            String command = t.render(Map.of("v", v));
            assertEquals(expectedPrefix + v + expectedSuffix + "\n", sh(command), command);
            assertFalse(Files.exists(tmp.resolve("PWNED")), "ran part of " + command);
        }
    }

    @Test
    void separateWordsKeepEachValueInsideItsWord() throws Exception {
        check(List.of("printf", "%s\\n", "{v}"), "", "");
        check(List.of("printf", "%s\\n", "--v={v}."), "--v=", ".");
    }

    @Test
    void oneShellStringQuotesEachValueForWhereItStands() throws Exception {
        check(List.of("printf '%s\\n' {v}"), "", "");
        check(List.of("printf '%s\\n' pre{v}post"), "pre", "post");
        check(List.of("printf '%s\\n' 'in single {v} quotes'"), "in single ", " quotes");
        check(List.of("printf '%s\\n' \"in double {v} quotes\""), "in double ", " quotes");
        check(List.of("x=\"{v}\"; printf '%s\\n' \"$x\""), "", "");
    }

    @Test
    void theShellsOwnBracesAreNoPlaceholders() throws Exception {
        CommandTemplate t = new CommandTemplate(List.of("x=${HOME}; printf '%s\\n' \"${NVIDB_PARAM_V}\" {v} \\${v}"));
        assertEquals(java.util.Set.of("v"), t.names());
        assertEquals(java.util.Set.of("HOME", "NVIDB_PARAM_V"), t.shellVariables());
        assertEquals("x=${HOME}; printf '%s\\n' \"${NVIDB_PARAM_V}\" 'a b' \\$'a b'", t.render(Map.of("v", "a b")));
        assertTrue(t.namesVariable("NVIDB_PARAM_V") && !t.namesVariable("NVIDB_PARAM_") && !t.namesVariable("PARAM_V"));
    }

    @Test
    void whereTheQuotingCannotBeFollowedOnlyInertValuesGo() throws Exception {
        CommandTemplate t = new CommandTemplate(List.of("printf '%s\\n' \"$(echo {v})\""));
        assertEquals("lr=1e-3,x:y/z\n", sh(t.render(Map.of("v", "lr=1e-3,x:y/z"))));
        NvidbException e = assertThrows(NvidbException.class, () -> t.render(Map.of("v", "$(touch PWNED)")));
        assertTrue(e.getMessage().contains("pass the command as separate words") && e.getMessage().contains("$NVIDB_PARAM_V"),
                e.getMessage());
        CommandTemplate heredoc = new CommandTemplate(List.of("cat <<EOF\n{v}\nEOF"));
        assertThrows(NvidbException.class, () -> heredoc.render(Map.of("v", "$(touch PWNED)")));
        assertFalse(Files.exists(tmp.resolve("PWNED")));
    }
}
