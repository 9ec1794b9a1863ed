package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The agent skill we ship is a promise: every command and option it names must exist. The
 * project's copy in {@code skill/} must also say what the user's own skill says.
 */
class SkillContractTest {
    private static final Path SKILL = Path.of("../../skill/nvidb-queue/SKILL.md");
    private static final Path SEED = Path.of("../../../shared/seed/nvidb-queue-skill.txt");

    /**
     * Commands the skill names that later issues deliver (scheduler, lanes, SSH). The test fails
     * when one of them appears, so this list only shrinks.
     */
    private static final Set<String> NOT_YET = Set.of();

    /** Options the skill names on {@code job submit} that arrive with the scheduler. */
    private static final Set<String> SUBMIT_OPTIONS_NOT_YET = Set.of();

    private static CommandLine root() {
        CliContext ctx = new CliContext(Map.of(), new Output(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
        return Nvidb.commandLine(ctx);
    }

    @Test
    void everyCommandLineInTheSkillParses() throws Exception {
        String skill = Files.readString(SKILL);
        List<String> lines = commandLines(skill);
        assertTrue(lines.size() > 30, "found only " + lines.size() + " command lines");
        Set<String> stillMissing = new TreeSet<>();
        Set<String> implemented = new TreeSet<>();
        for (String line : lines) {
            List<String> words = words(line);
            CommandLine cmd = root();
            int i = 1;
            String path = "";
            while (i < words.size()) {
                if (cmd.getSubcommands().containsKey(words.get(i))) {
                    cmd = cmd.getSubcommands().get(words.get(i));
                    path = (path + " " + words.get(i)).strip();
                    i++;
                } else if (i + 1 < words.size() && !words.get(i).startsWith("-")
                        && !cmd.getCommandSpec().positionalParameters().isEmpty()
                        && cmd.getSubcommands().containsKey(words.get(i + 1))) {
                    i++; // a positional before a subcommand: `queue lane LANE move ...`
                } else {
                    break;
                }
            }
            String wanted = words.size() > 2 ? words.get(1) + " " + words.get(2) : path;
            boolean found = path.equals(wanted) || path.startsWith(wanted + " ");
            if (NOT_YET.contains(wanted)) {
                if (found) {
                    implemented.add(wanted);
                }
                stillMissing.add(wanted);
                continue;
            }
            assertTrue(found, "the skill's command is missing: " + line + " (parsed as " + path + ")");
            for (String w : words.subList(i, words.size())) {
                if (w.equals("--")) {
                    break;
                }
                if (w.startsWith("--")) {
                    String option = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
                    if (path.equals("job submit") && SUBMIT_OPTIONS_NOT_YET.contains(option)) {
                        continue;
                    }
                    assertTrue(hasOption(cmd, option), "`nvidb " + path + "` has no option " + option + " (" + line + ")");
                }
            }
        }
        assertTrue(implemented.isEmpty(), "now implemented, take them off NOT_YET: " + implemented);
    }

    @Test
    void everySubmitOptionTheSkillListsExists() throws Exception {
        String skill = Files.readString(SKILL);
        CommandLine submit = root().getSubcommands().get("job").getSubcommands().get("submit");
        Matcher m = Pattern.compile("^- (--[a-z-]+)", Pattern.MULTILINE).matcher(skill);
        int seen = 0;
        while (m.find()) {
            seen++;
            String option = m.group(1);
            if (!SUBMIT_OPTIONS_NOT_YET.contains(option)) {
                assertTrue(hasOption(submit, option), "job submit lacks " + option);
            }
        }
        for (String o : List.of("--workdir", "--env", "--priority", "--tag")) {
            assertTrue(hasOption(submit, o), "job submit lacks " + o);
        }
        assertTrue(seen >= 10, "parsed only " + seen + " option bullets");
    }

    /** Every tool the skill's MCP section names is a tool nvidb mcp serves, and it names them all. */
    @Test
    void everyToolTheSkillNamesExists() throws Exception {
        String skill = Files.readString(SKILL);
        int at = skill.indexOf("## Attached over MCP");
        assertTrue(at >= 0, "the skill says how tools are used over MCP");
        String section = skill.substring(at, skill.indexOf("\n## ", at + 3));
        String list = section.substring(section.indexOf("its tools are these commands:"), section.indexOf(". Their arguments"));
        List<String> named = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("`([a-z_]+)`").matcher(list);
        while (m.find()) {
            named.add(m.group(1));
        }
        for (String tool : named) {
            assertTrue(nvidb.mcp.Tools.NAMES.contains(tool), "the skill names a tool nvidb mcp does not serve: " + tool);
        }
        assertEquals(new java.util.TreeSet<>(nvidb.mcp.Tools.NAMES), new java.util.TreeSet<>(named),
                "the skill names every tool");
    }

    @Test
    void theShippedSkillSaysWhatTheUsersSkillSays() throws Exception {
        if (!Files.exists(SEED)) {
            return; // a checkout without shared/: the copy is checked where the seed exists (CI has it)
        }
        String seed = Files.readString(SEED);
        String ours = Files.readString(SKILL);
        for (String line : seed.split("\n")) {
            String l = line.strip().replace("• ", "");
            if (l.isEmpty() || l.contains("\t")) {
                continue;
            }
            if (!ours.contains(l)) {
                fail("skill/nvidb-queue/SKILL.md lost this line of the user's skill: " + l);
            }
        }
    }

    private static boolean hasOption(CommandLine cmd, String name) {
        for (CommandLine c = cmd; c != null; c = c.getParent()) {
            var option = c.getCommandSpec().findOption(name);
            if (option != null && (c == cmd || option.inherited() || option.scopeType() == CommandLine.ScopeType.INHERIT)) {
                return true;
            }
        }
        return false;
    }

    /** Lines of a Markdown text's shell blocks that run nvidb ({@code ./nvidb} read as {@code nvidb}), comments cut. */
    static List<String> commandLines(String markdown) {
        List<String> out = new ArrayList<>();
        boolean inShell = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                inShell = line.equals("```sh");
                continue;
            }
            String l = line.startsWith("./nvidb ") ? line.substring(2) : line;
            if (inShell && l.startsWith("nvidb ")) {
                out.add((l.contains("#") ? l.substring(0, l.indexOf('#')) : l).strip());
            }
        }
        return out;
    }

    /** Splits a shell line into words, honouring single and double quotes. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char ch : line.toCharArray()) {
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                } else {
                    cur.append(ch);
                }
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
                any = true;
            } else if (Character.isWhitespace(ch)) {
                if (any || cur.length() > 0) {
                    words.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(ch);
            }
        }
        if (any || cur.length() > 0) {
            words.add(cur.toString());
        }
        return words;
    }
}
