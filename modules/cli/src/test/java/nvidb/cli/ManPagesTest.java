package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import nvidb.cli.completion.CommandTree;
import nvidb.cli.completion.ManPages;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The manual pages {@code nvidb manpages} writes: one per visible command, each holding every
 * option and example its {@code --help} shows, and each rendered by the real man without a warning
 * (skipped where man-db is not installed).
 */
class ManPagesTest {
    @TempDir
    Path tmp;

    /** The pages {@code nvidb manpages} writes into a new folder. */
    private Path pages(Cli cli) {
        Path dir = tmp.resolve("man");
        Cli.Result r = cli.run("manpages", dir.toString());
        assertEquals(0, r.exit(), r.toString());
        return dir;
    }

    @Test
    void onePagePerCommandWithItsOptionsAndExamples() throws Exception {
        Cli cli = new Cli(tmp);
        Path dir = pages(cli);
        CommandLine tree = Nvidb.commandLine(new CliContext(cli.environment(), Output.system()));
        List<CommandLine> commands = CommandTree.commands(tree);
        try (var files = Files.list(dir)) {
            assertEquals(commands.size(), files.count(), "one page per command");
        }
        for (CommandLine line : commands) {
            Path page = dir.resolve(ManPages.pageName(line) + ".1");
            String roff = Files.readString(page);
            for (OptionSpec o : CommandTree.options(line.getCommandSpec())) {
                assertTrue(roff.contains(ManPages.text(o.longestName())), page + " lacks " + o.longestName());
            }
            String firstExample = HelpText.EXAMPLES.get(CommandTree.path(line)).get(0);
            assertTrue(roff.contains(ManPages.text(firstExample)), page + " lacks the example " + firstExample);
        }
        var written = cli.run("manpages", "--json", tmp.resolve("again").toString()).json();
        assertEquals(commands.size(), written.path("pages").size(), "--json: one document naming every page");
        assertTrue(Files.isRegularFile(Path.of(written.path("pages").path(0).asText())), written.toString());
        String root = Files.readString(dir.resolve("nvidb.1"));
        assertTrue(root.contains(".SH EXIT CODES") && root.contains("\\fBnvidb\\-job\\fR(1)"), root);
    }

    @Test
    void manRendersThePagesWithoutAWarning() throws Exception {
        assumeTrue(HostTools.installed("man"), HostTools.missing("man", "man-db"));
        Path dir = pages(new Cli(tmp));
        // With warnings on, groff says nothing (on stderr: the page itself may say "warning").
        for (String name : List.of("nvidb", "nvidb-job-submit", "nvidb-queue-lane-move", "nvidb-doctor")) {
            Path err = tmp.resolve(name + ".err");
            Process man = new ProcessBuilder("man", "--warnings", "-l", dir.resolve(name + ".1").toString())
                    .redirectError(err.toFile()).start();
            man.getOutputStream().close();
            String out = new String(man.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(man.waitFor(60, TimeUnit.SECONDS));
            String said = Files.readString(err);
            assertEquals(0, man.exitValue(), out + said);
            assertTrue(out.contains("NAME"), name + ":\n" + out);
            assertFalse(said.contains("warning"), name + ": man (groff) warned:\n" + said);
        }
    }
}
