package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nvidb mcp config}: each client's own format, naming this nvidb and its mcp command. */
class McpConfigTest {
    @TempDir
    Path tmp;

    @Test
    void eachClientGetsItsOwnFormatAndAnUnknownOneIsAUsageError() throws Exception {
        Cli cli = new Cli(tmp);
        Cli.Result claude = cli.run("mcp", "config", "--client", "claude-code");
        assertEquals(0, claude.exit(), claude.toString());
        assertEquals("claude mcp add --scope user nvidb -- nvidb mcp\n", claude.out());

        JsonNode generic = Cli.JSON.readTree(cli.run("mcp", "config").out());
        assertEquals("nvidb", generic.path("mcpServers").path("nvidb").path("command").asText());
        assertEquals("mcp", generic.path("mcpServers").path("nvidb").path("args").get(0).asText());

        String cursor = cli.run("mcp", "config", "--client", "cursor").out();
        assertTrue(cursor.startsWith("// ~/.cursor/mcp.json\n"), cursor);
        assertEquals("mcp", Cli.JSON.readTree(cursor.substring(cursor.indexOf('\n') + 1))
                .path("mcpServers").path("nvidb").path("args").get(0).asText());

        String vscode = cli.run("mcp", "config", "--client", "vscode").out();
        JsonNode servers = Cli.JSON.readTree(vscode.substring(vscode.indexOf('\n') + 1)).path("servers");
        assertEquals("stdio", servers.path("nvidb").path("type").asText());

        String codex = cli.run("mcp", "config", "--client", "codex").out();
        assertTrue(codex.contains("[mcp_servers.nvidb]\ncommand = \"nvidb\"\nargs = [\"mcp\"]\n"), codex);

        Cli.Result unknown = cli.run("mcp", "config", "--client", "emacs");
        assertEquals(64, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("claude-code, codex, cursor, vscode or generic"), unknown.toString());
    }
}
