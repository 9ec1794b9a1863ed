package nvidb.cli.commands;

import java.util.Locale;
import nvidb.core.api.NvidbException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb mcp config}: what to add to an agent client's configuration, in that client's own format. */
@Command(name = "config", mixinStandardHelpOptions = true, description = {
        "Print what to add to an MCP client's configuration so that it starts nvidb mcp.",
        "claude-code: a command to run (claude mcp add); codex: ~/.codex/config.toml; cursor: ~/.cursor/mcp.json;",
        "vscode: .vscode/mcp.json; generic: the usual mcpServers JSON."})
public final class McpConfig extends BaseCommand {
    @Option(names = "--client", paramLabel = "NAME", defaultValue = "generic",
            description = "claude-code, codex, cursor, vscode or generic (default).")
    String client;

    @Override
    protected int execute() {
        String nvidb = launcher();
        String text = switch (client.toLowerCase(Locale.ROOT)) {
            case "claude-code", "claude" -> "claude mcp add --scope user nvidb -- " + nvidb + " mcp\n";
            case "codex" -> "# ~/.codex/config.toml\n[mcp_servers.nvidb]\ncommand = " + toml(nvidb) + "\nargs = [\"mcp\"]\n";
            case "cursor", "generic" -> (client.equalsIgnoreCase("cursor") ? "// ~/.cursor/mcp.json\n" : "")
                    + "{\n  \"mcpServers\": {\n    \"nvidb\": {\n      \"command\": " + json(nvidb)
                    + ",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n";
            case "vscode" -> "// .vscode/mcp.json\n{\n  \"servers\": {\n    \"nvidb\": {\n      \"type\": \"stdio\",\n"
                    + "      \"command\": " + json(nvidb) + ",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n";
            default -> throw NvidbException.usage("--client takes claude-code, codex, cursor, vscode or generic, not '"
                    + client + "'");
        };
        out().raw(text);
        return 0;
    }

    /** The launcher's absolute path where the image says (bin/nvidb), else plain nvidb from PATH. */
    private String launcher() {
        String home = System.getProperty("nvidb.launcher");
        return home == null || home.isBlank() ? "nvidb" : home;
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String toml(String s) {
        return json(s);
    }
}
