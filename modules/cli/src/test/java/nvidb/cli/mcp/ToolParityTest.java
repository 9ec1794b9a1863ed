package nvidb.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import nvidb.cli.Cli;
import nvidb.cli.commands.CliToolParameters;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.core.api.NvidbException;
import nvidb.mcp.ToolArguments;
import nvidb.mcp.ToolParameter;
import nvidb.mcp.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An option exists in both doors or in neither: every MCP tool takes exactly the options of the
 * CLI command it mirrors (the schema is read from the CLI's model), and its handler uses every one
 * of them, read from a real call on a real queue.
 */
class ToolParityTest {
    @TempDir
    Path tmp;

    @Test
    void everyToolMirrorsACommandAndItsHandlerReadsEveryOption() throws Exception {
        assertEquals(new TreeSet<>(Tools.NAMES), new TreeSet<>(CliToolParameters.COMMANDS.keySet()),
                "each tool mirrors one CLI command");
        Cli cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  job_root: " + tmp.resolve("jobs") + "\n");
        long job = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true").path("job").path("id").asLong();
        long sweep = cli.json("job", "sweep", "--gpus", "0", "--no-tick", "--grid", "x=1,2", "--", "echo {x}")
                .path("sweep").path("id").asLong();
        CliToolParameters parameters = new CliToolParameters();
        try (CliContext ctx = new CliContext(cli.environment(), new Output(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())))) {
            for (var tool : Tools.ALL) {
                List<ToolParameter> params = parameters.of(tool.name());
                Map<String, Object> given = new HashMap<>();
                // Only what the call needs to get past its first check: an existing id.
                params.stream().filter(p -> p.name().equals("id")).findFirst()
                        .ifPresent(p -> given.put("id", tool.name().equals("sweep") ? sweep : job));
                params.stream().filter(p -> p.name().equals("ids")).findFirst()
                        .ifPresent(p -> given.put("ids", List.of(String.valueOf(job))));
                if (tool.name().endsWith("submit")) {
                    given.put("command", List.of("true"));
                    given.put("no_tick", true);
                    given.put("dry_run", tool.name().equals("sweep_submit") ? true : null);
                    given.put("grid", tool.name().equals("sweep_submit") ? List.of("x=1") : null);
                    given.values().removeIf(java.util.Objects::isNull);
                }
                if (tool.name().equals("wait")) {
                    given.put("timeout", 1);
                }
                ToolArguments args = new ToolArguments(tool.name(), params, given);
                try {
                    tool.handler().call(new nvidb.mcp.ToolCall(ctx.app(), ctx.caller(), args, nvidb.mcp.ToolCall.Progress.NONE));
                } catch (NvidbException refused) {
                    // A refusal after reading its arguments still shows what the handler reads.
                }
                Set<String> names = params.stream().map(ToolParameter::name).collect(Collectors.toCollection(TreeSet::new));
                assertEquals(names, new TreeSet<>(args.read()), tool.name() + ": options its handler never reads");
                assertFalse(names.contains("json") || names.contains("help") || names.contains("version"), tool.name());
            }
        }
        Map<String, ToolParameter> submit = parameters.of("submit").stream()
                .collect(Collectors.toMap(ToolParameter::name, p -> p));
        assertEquals(ToolParameter.Kind.STRINGS, submit.get("command").kind());
        assertEquals(ToolParameter.Kind.INTEGER, submit.get("gpus").kind());
        assertEquals(ToolParameter.Kind.BOOLEAN, submit.get("no_burst").kind());
        assertEquals("--idempotency-key", submit.get("idempotency_key").cliName());
        assertTrue(parameters.of("logs").stream().anyMatch(p -> p.name().equals("number")), "--number is number");
        assertTrue(Files.exists(cli.database()));
    }
}
