/**
 * The application layer as Model Context Protocol tools, resources and instructions, for
 * {@code nvidb mcp} (stdio) and the web's {@code /mcp} (Streamable HTTP on the JDK's server).
 *
 * <p>The official MCP Java SDK is not modular: its jars name themselves
 * ({@code Automatic-Module-Name}), so they are automatic modules on the image's module path, as is
 * Reactor, which it brings; automatic modules read every module and may use any service, which is
 * how the SDK finds its Jackson mapper and schema validator (ServiceLoader). Nothing here is
 * touched on a command's path: the SDK's classes load only in {@code nvidb mcp} and
 * {@code queue web}.
 */
module nvidb.mcp {
    requires transitive nvidb.core;
    requires io.modelcontextprotocol.sdk.mcp.core;
    requires io.modelcontextprotocol.sdk.mcp.json.jackson2;
    // The SDK's schema validator (an explicit module): an automatic module reads only the modules
    // that something resolves, so the validator the Jackson binding uses is required here.
    requires com.networknt.schema;
    requires reactor.core;
    requires org.reactivestreams;
    requires com.fasterxml.jackson.databind;
    requires jdk.httpserver;
    exports nvidb.mcp;
    // Jackson writes the few documents of its own (wait's answer, a followed log) reflectively.
    opens nvidb.mcp to com.fasterxml.jackson.databind;
}
