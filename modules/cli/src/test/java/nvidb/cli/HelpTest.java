package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command's {@code --help}, walked: a summary that is a whole sentence (it is what the
 * parent's command list shows), an Examples section with at least two {@code nvidb …} lines, each
 * of which parses, and a usage line that names every word the command needs.
 */
class HelpTest {
    @TempDir
    Path tmp;

    private static CommandLine root() {
        CliContext ctx = new CliContext(Map.of(), new Output(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
        return Nvidb.commandLine(ctx);
    }

    private static void walk(CommandLine cmd, List<CommandLine> into) {
        into.add(cmd);
        cmd.getSubcommands().values().forEach(c -> walk(c, into));
    }

    @Test
    void everyHelpHasAWholeSentenceSummaryAndExamplesThatParse() {
        List<CommandLine> all = new ArrayList<>();
        walk(root(), all);
        assertTrue(all.size() >= 37, "found only " + all.size() + " commands");
        List<String> problems = new ArrayList<>();
        for (CommandLine cmd : all) {
            String name = cmd.getCommandSpec().qualifiedName(" ");
            String[] description = cmd.getCommandSpec().usageMessage().description();
            if (description.length == 0 || !description[0].strip().endsWith(".")) {
                problems.add(name + ": the summary does not end with a full stop: "
                        + (description.length == 0 ? "(none)" : description[0]));
            }
            String help = cmd.getUsageMessage();
            int at = help.indexOf("\nExamples:\n");
            if (at < 0) {
                problems.add(name + ": no Examples section");
                continue;
            }
            List<String> examples = help.substring(at).lines().skip(1).takeWhile(l -> !l.isBlank())
                    .filter(l -> l.startsWith("  nvidb ")).toList();
            if (examples.size() < 2) {
                problems.add(name + ": fewer than two examples: " + examples);
            }
            for (String example : examples) {
                // Example lines may end in a comment; the skill's test splits the rest like sh does.
                String line = example.contains(" # ") ? example.substring(0, example.indexOf(" # ")) : example;
                List<String> words = SkillContractTest.words(line.strip());
                try {
                    root().parseArgs(words.subList(1, words.size()).toArray(String[]::new));
                } catch (CommandLine.ParameterException e) {
                    problems.add(name + ": example does not parse: " + example.strip() + " (" + e.getMessage() + ")");
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    @Test
    void theLaneSubcommandsUsageLineNamesTheLane() {
        CommandLine lane = root().getSubcommands().get("queue").getSubcommands().get("lane");
        assertTrue(lane.getSubcommands().size() >= 8, lane.getSubcommands().keySet().toString());
        lane.getSubcommands().forEach((name, sub) -> {
            String help = sub.getUsageMessage();
            assertTrue(help.startsWith("Usage: nvidb queue lane LANE " + name + " "), help);
        });
        String move = lane.getSubcommands().get("move").getUsageMessage();
        assertTrue(move.contains("[--to=head|tail|N]") && move.contains(" ID\n"), move);
    }

    @Test
    void theRootAloneSaysWhereHelpIsOnce() {
        Cli.Result r = new Cli(tmp).run("--json");
        assertEquals(64, r.exit(), r.toString());
        String error = r.json().path("error").asText();
        assertEquals(1, error.split("see nvidb --help", -1).length - 1, error);
        assertTrue(r.json().path("error").asText().startsWith("pick a command"), error);
    }

    @Test
    void theRootHelpKeepsTheExitCodesAfterTheExamples() {
        String help = root().getUsageMessage();
        assertTrue(help.indexOf("Examples:") < help.indexOf("Exit codes:"), help);
        assertTrue(help.contains("  64   usage:"), help);
    }
}
