package nvidb.cli.commands;

import nvidb.core.api.NvidbException;
import nvidb.core.app.ApplicationPool;
import nvidb.mcp.McpService;
import nvidb.mcp.StdioMcp;
import picocli.CommandLine.Command;

/** {@code nvidb mcp}: the queue as an MCP server on stdin/stdout, for an agent's client to start. */
@Command(name = "mcp", mixinStandardHelpOptions = true, subcommands = McpConfig.class, description = {
        "Serve the queue to an AI agent over the Model Context Protocol on stdin/stdout (the client starts it).",
        "Tools mirror the commands (submit, jobs, job, logs, wait, cancel, events, alerts, status, …), their",
        "arguments the options in snake_case, their answers the --json documents; the skill is the server's",
        "instructions. With remote: in queue.yml the server runs on the queue host over one ssh session.",
        "nvidb mcp config --client NAME prints what to add to that client's configuration."})
public final class McpCommand extends BaseCommand {
    /** Queues a server keeps open at most: a call holds one while it works, a wait for as long as it waits. */
    static final int QUEUES = 8;

    @Override
    protected int execute() {
        // With remote:, the root relays to the queue host's nvidb mcp before this runs (McpRelay).
        ctx().open(); // a broken configuration is reported before the client's first call
        McpService service = new McpService(new ApplicationPool(ctx()::openAccess, QUEUES), new CliToolParameters(),
                McpService.skill(), null, ctx().env().get("NVIDB_SUBMITTER"));
        try {
            StdioMcp.serve(service, ctx().stdin(), out().out());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw NvidbException.interrupted();
        }
        return 0;
    }
}
