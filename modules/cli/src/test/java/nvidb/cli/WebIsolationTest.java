package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job submit} loads no class of the web module, none of the JDK's HTTP server and none of
 * the MCP server or its SDK (Reactor included): they load only for {@code queue web}, the daemon
 * and {@code nvidb mcp} (WebRules and McpRules keep the code so; this checks a real JVM's class
 * loading).
 */
class WebIsolationTest {
    @TempDir
    Path tmp;

    @Test
    void jobSubmitLoadsNothingOfTheWeb() throws Exception {
        Cli cli = new Cli(tmp);
        Path log = tmp.resolve("classes.log");
        List<String> command = cli.javaCommand();
        command.add(1, "-Xlog:class+load:file=" + log + ":none");
        command.addAll(List.of("job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true"));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(cli.environment());
        Cli.Result r = Cli.finish(pb.start(), 60);
        assertEquals(0, r.exit(), r.toString());
        List<String> loaded = Files.readAllLines(log);
        assertTrue(loaded.stream().anyMatch(l -> l.startsWith("nvidb.cli.commands.JobSubmit ")), "the log lists classes");
        List<String> web = loaded.stream().filter(l -> l.startsWith("nvidb.web.") || l.startsWith("com.sun.net.httpserver.")
                || l.startsWith("sun.net.httpserver.") || l.startsWith("nvidb.cli.web.") || l.startsWith("nvidb.mcp.")
                || l.startsWith("io.modelcontextprotocol.") || l.startsWith("reactor.")
                || l.startsWith("org.reactivestreams.")).toList();
        assertEquals(List.of(), web);
    }
}
