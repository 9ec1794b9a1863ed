/**
 * The queue in a browser ({@code nvidb queue web}, and the daemon with {@code queue.web.listen}):
 * the pages, their live stream of changes, the HTTP API and the Prometheus metrics, on the JDK's
 * own HTTP server. Each route is an operation of the application layer ({@code nvidb.core.app}),
 * asked as the web, and serves its document ({@code nvidb.core.view}): the same the CLI prints.
 */
module nvidb.web {
    requires nvidb.core;
    requires jdk.httpserver;
    // MCP at /mcp: the tools (nvidb.mcp) on the SDK's sessions, over a transport of the web's own.
    requires nvidb.mcp;
    requires io.modelcontextprotocol.sdk.mcp.core;
    requires reactor.core;

    exports nvidb.web;
}
