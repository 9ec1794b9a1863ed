package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.cli.completion.CommandTree;
import nvidb.cli.output.Output;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The completion scripts of {@code nvidb completion}, run by the real shells: bash sources the
 * script non-interactively and completes typed words as a Tab would (its completion function,
 * COMP_WORDS set as readline sets them); fish completes with {@code complete -C}; zsh loads the
 * function file. Job ids and node names come from the queue through an {@code nvidb} on PATH.
 * A shell that is not installed skips its own test, naming its Debian package.
 */
class CompletionScriptsTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path bin;

    @BeforeEach
    void setUp() throws IOException {
        cli = new Cli(tmp);
        // The scripts call the nvidb the user typed for job ids and node names: here, this build.
        bin = Files.createDirectories(tmp.resolve("bin"));
        Path nvidb = bin.resolve("nvidb");
        Files.writeString(nvidb, "#!/bin/sh\nexec " + String.join(" ", cli.javaCommand().stream()
                .map(a -> "'" + a.replace("'", "'\\''") + "'").toList()) + " \"$@\"\n");
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Path script(String shell) throws IOException {
        Cli.Result r = cli.run("completion", shell);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("", r.err());
        Path file = tmp.resolve("completion." + shell);
        Files.writeString(file, r.out());
        return file;
    }

    /** Skips the test where {@code shell} is not installed (each shell is its own Debian package). */
    private static void needs(String shell) {
        assumeTrue(HostTools.installed(shell), HostTools.missing(shell, shell));
    }

    /** Runs a shell with {@code args}; returns stdout, failing on a non-zero exit. */
    private String run(List<String> args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(args).redirectErrorStream(false);
        pb.environment().clear();
        pb.environment().putAll(cli.environment());
        pb.environment().put("PATH", bin + ":" + cli.environment().get("PATH"));
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), args + "\n" + out + "\n" + err);
        return out;
    }

    /** What bash offers for each typed line (the last word is the one being completed), sorted. */
    private Map<String, String> bash(Path script, String... lines) throws Exception {
        StringBuilder s = new StringBuilder("source \"$1\"\n")
                // compopt changes readline's options of a completion in progress: there is none here.
                .append("compopt() { return 0; }\n")
                .append("complete -p nvidb\n")
                .append("tab() {\n")
                .append("    COMP_LINE=$1; COMP_POINT=${#1}; read -r -a COMP_WORDS <<< \"$1\"\n")
                .append("    [[ $1 == *' ' ]] && COMP_WORDS+=('')\n")
                .append("    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()\n")
                .append("    _nvidb_complete nvidb \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n")
                .append("    printf '%s\\n' \"${COMPREPLY[@]}\" | sort -u | paste -sd ' ' -\n")
                .append("}\n");
        for (String line : lines) {
            s.append("tab '").append(line).append("'\n");
        }
        List<String> out = run(List.of("bash", "-c", s.toString(), "bash", script.toString())).lines().toList();
        assertTrue(out.get(0).matches("complete .*-F _nvidb_complete .*nvidb.*"), out.get(0));
        Map<String, String> offered = new LinkedHashMap<>();
        for (int i = 0; i < lines.length; i++) {
            offered.put(lines[i], out.get(i + 1));
        }
        return offered;
    }

    @Test
    void bashCompletesCommandsOptionsAndTheQueuesIdsAndNodes() throws Exception {
        needs("bash");
        Path script = script("bash");
        cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        Map<String, String> offered = bash(script, "nvidb ", "nvidb job sub", "nvidb queue lane ", "nvidb queue lane --j",
                "nvidb zzz", "nvidb job zz", "nvidb job show ", "nvidb job submit --node ", "nvidb job submit --after ",
                "nvidb queue ack ", "nvidb completion ");
        assertEquals("completion doctor job mcp plugins queue sweep", offered.get("nvidb "), "hidden commands stay hidden");
        assertEquals("submit", offered.get("nvidb job sub"));
        assertEquals("assign concurrency move pause resume runner skip swap", offered.get("nvidb queue lane "));
        assertEquals("--json", offered.get("nvidb queue lane --j"));
        assertEquals("", offered.get("nvidb zzz"), "an unknown word completes to nothing");
        assertEquals("", offered.get("nvidb job zz"));
        assertEquals("1 2", offered.get("nvidb job show "), "job ids from the queue");
        assertEquals("local", offered.get("nvidb job submit --node "), "node names from the queue");
        assertEquals("1 2", offered.get("nvidb job submit --after "));
        assertEquals("", offered.get("nvidb queue ack "), "alert ids are not job ids");
        assertEquals("bash fish zsh", offered.get("nvidb completion "));
    }

    @Test
    void everyCommandOfTheTreeIsInEveryScript() throws Exception {
        CommandLine tree = Nvidb.commandLine(new nvidb.cli.context.CliContext(cli.environment(), Output.system()));
        String bash = Files.readString(script("bash"));
        String zsh = Files.readString(script("zsh"));
        String fish = Files.readString(script("fish"));
        List<String> paths = new ArrayList<>();
        for (CommandLine line : CommandTree.commands(tree)) {
            String path = line.getCommandSpec().qualifiedName(" ");
            paths.add(path);
            assertTrue(bash.contains("_nvidb_subs['" + path + "']"), path);
            assertTrue(zsh.contains("_nvidb_cmd" + path.substring("nvidb".length()).replaceAll("[^a-zA-Z0-9]", "_")
                    + "() {"), path);
            assertTrue(fish.contains("__nvidb_at \\'" + CommandTree.path(line) + "\\'"), path);
        }
        assertTrue(paths.size() > 40, paths.toString());
        assertTrue(paths.contains("nvidb doctor") && paths.contains("nvidb queue lane move"), paths.toString());
    }

    @Test
    void fishCompletesFromItsScript() throws Exception {
        needs("fish");
        Path script = script("fish");
        cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        String out = run(List.of("fish", "--no-config", "-c", "source $argv[1]; complete -C 'nvidb job sub'; echo ==;"
                + " complete -C 'nvidb job show '; echo ==; complete -C 'nvidb zzz'; echo ==;"
                + " complete -C 'nvidb queue lane --js'", script.toString()));
        String[] parts = out.split("==\n", -1);
        assertEquals("submit\tQueue a job.\n", parts[0]);
        assertEquals("1\n", parts[1]);
        assertTrue(parts[2].isEmpty() || !parts[2].contains("\t"), "nothing from nvidb for an unknown word: " + parts[2]);
        assertTrue(parts[3].startsWith("--json\t"), parts[3]);
    }

    @Test
    void zshLoadsItsFunctionFile() throws Exception {
        needs("zsh");
        Path script = script("zsh");
        Path fpath = Files.createDirectories(tmp.resolve("zfunc"));
        Files.copy(script, fpath.resolve("_nvidb"));
        run(List.of("zsh", "-n", script.toString()));
        String out = run(List.of("zsh", "-f", "-c", "fpath=($1 $fpath); autoload -Uz compinit; compinit -u -D;"
                + " source $1/_nvidb; print -l ${(ok)functions[(I)_nvidb_cmd*]} | wc -l; print ${_comps[nvidb]}",
                "zsh", fpath.toString()));
        List<String> lines = out.lines().toList();
        assertTrue(Integer.parseInt(lines.get(0).strip()) > 40, out);
        assertEquals("_nvidb", lines.get(1), "compinit binds nvidb to the function file: " + out);
    }
}
