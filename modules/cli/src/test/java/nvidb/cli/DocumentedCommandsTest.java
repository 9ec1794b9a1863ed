package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code nvidb …} line in the shell blocks of the skill, the README and every guide in
 * {@code docs/} ({@link DocumentationTest#markdown()}) runs, through the
 * real command line, against a throw-away NVIDB_HOME whose one node is this machine without GPUs.
 * The jobs and lanes the lines name mostly do not exist there, so a line may end not found (3),
 * busy (4) or failed (1, a job no GPU could hold); what it may not do is end as a usage error
 * (64: a command or option that does not exist) or a crash. A line that streams until interrupted
 * ({@code --watch}, {@code -f}) is parsed only, with {@code --help}. A line in a shell block that
 * is not a literal command ({@code [--opt]}, {@code a | b}) fails: a reader would paste it.
 */
class DocumentedCommandsTest {
    private static final Path SKILL = Path.of("../../skill/nvidb-queue/SKILL.md");
    private static final Set<Integer> ACCEPTED = Set.of(0, 1, 2, 3, 4);
    private static final Set<String> STREAMING = Set.of("--watch", "-f", "--follow");

    @TempDir
    Path tmp;

    @AfterEach
    void tearDown() throws Exception {
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"));
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void everyDocumentedCommandLineRunsWithoutAUsageError() throws Exception {
        Cli cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:docs");
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("jobs")
                + "\n  lane_spool_root: " + tmp.resolve("spool") + "\n");
        int ran = 0;
        List<String> failures = new ArrayList<>();
        List<Path> documents = new ArrayList<>(List.of(SKILL));
        documents.addAll(DocumentationTest.markdown());
        Set<String> withCommands = new TreeSet<>();
        for (Path document : documents) {
            for (String line : SkillContractTest.commandLines(Files.readString(document))) {
                withCommands.add(document.getFileName().toString());
                if (line.contains("[") || line.contains(" | ")) {
                    failures.add(document.getFileName() + ": not a literal command line: " + line);
                    continue;
                }
                List<String> all = SkillContractTest.words(line);
                List<String> words = all.subList(1, all.size());
                // nvidb mcp serves its stdin until it closes: parsed only, as a streaming line.
                boolean streams = words.stream().anyMatch(STREAMING::contains) || words.equals(List.of("mcp"));
                Cli.Result r = cli.run(streams ? withHelp(words) : words.toArray(String[]::new));
                ran++;
                boolean crashed = r.err().contains("NVIDB_DEBUG=1");
                if (streams ? r.exit() != 0 : !ACCEPTED.contains(r.exit()) || crashed) {
                    failures.add(document.getFileName() + ": " + line + "\n" + r);
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " documented command line(s) do not run:\n" + String.join("\n\n", failures));
        }
        assertTrue(ran > 85, "found only " + ran + " command lines");
        for (String d : List.of("SKILL.md", "README.md", "jobs.md", "lanes.md", "sweeps.md", "backups.md")) {
            assertTrue(withCommands.contains(d), d + " has no command line the test ran: " + withCommands);
        }
    }

    @Test
    void aMisspelledOptionOrCommandIsCaughtByTheSameRule() {
        Cli cli = new Cli(tmp);
        assertEquals(64, cli.run("job", "ls", "--actve").exit());
        assertEquals(64, cli.run("queue", "frobnicate").exit(), "a command that is not built is a usage error");
        assertFalse(ACCEPTED.contains(64));
    }

    /** The line's words with {@code --help} ahead of any {@code --}: the command and options are parsed, nothing runs. */
    private static String[] withHelp(List<String> words) {
        List<String> out = new ArrayList<>(words);
        int dd = out.indexOf("--");
        out.add(dd < 0 ? out.size() : dd, "--help");
        return out.toArray(String[]::new);
    }
}
