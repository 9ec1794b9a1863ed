package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import nvidb.core.api.ErrorCode;
import nvidb.mcp.McpService;
import reactor.core.publisher.Mono;

/**
 * MCP's Streamable HTTP transport at {@code /mcp}, on the JDK's HTTP server: the SDK's own is
 * servlet-based, and a servlet container is a second web server beside the one nvidb has. This
 * implements the SDK's transport interface instead; the SDK keeps the protocol and the sessions.
 *
 * <p>{@code POST} carries one message: {@code initialize} opens a session (its id in
 * {@code Mcp-Session-Id}); a request is answered as a Server-Sent Events stream that carries its
 * progress notifications and then its response; a notification or response gets 202. {@code GET}
 * opens the session's stream for what the server sends unasked (resource updates); {@code DELETE}
 * ends the session. The token and Host checks are the web's, before any of this.
 */
final class McpHttp implements McpStreamableServerTransportProvider {
    static final String SESSION = "Mcp-Session-Id";

    private final McpJsonMapper json;
    private final Map<String, McpStreamableServerSession> sessions = new ConcurrentHashMap<>();
    /** The user whose token opened each session: its every call is theirs, and only their token may go on with it. */
    private final Map<String, String> users = new ConcurrentHashMap<>();
    private final McpService service;
    private volatile McpStreamableServerSession.Factory factory;
    private final AutoCloseable serving;

    McpHttp(McpService service, McpJsonMapper json) {
        this.service = service;
        this.json = json;
        this.serving = service.serve(this);
        service.sessionUsers(users::get);
    }

    @Override
    public void setSessionFactory(McpStreamableServerSession.Factory factory) {
        this.factory = factory;
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return Mono.fromRunnable(() -> sessions.values().forEach(s -> {
            try {
                s.sendNotification(method, params).block();
            } catch (RuntimeException gone) {
                // a session whose client went away: the others still hear it
            }
        }));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            sessions.values().forEach(McpStreamableServerSession::close);
            sessions.clear();
            users.clear();
        });
    }

    void close(boolean unused) {
        try {
            serving.close();
        } catch (Exception e) {
            // closing: nothing left to tell
        }
    }

    /** @param user whose token the request carries (the web's own token: the server's account) */
    void handle(HttpExchange ex, String user) throws IOException {
        String method = ex.getRequestMethod();
        String sessionId = ex.getRequestHeaders().getFirst(SESSION);
        String owner = sessionId == null ? null : users.get(sessionId);
        if (owner != null && !owner.equals(user)) {
            Http.error(ex, 403, ErrorCode.FORBIDDEN, "MCP session " + sessionId + " was opened with " + owner
                    + "'s token, and this request carries " + user + "'s: initialize a session of your own");
            return;
        }
        switch (method) {
            case "POST" -> post(ex, sessionId, user);
            case "GET" -> listen(ex, sessionId);
            case "DELETE" -> {
                McpStreamableServerSession s = sessionId == null ? null : sessions.remove(sessionId);
                if (sessionId != null) {
                    users.remove(sessionId);
                }
                if (s == null) {
                    Http.error(ex, 404, ErrorCode.NOT_FOUND, "no MCP session " + sessionId);
                    return;
                }
                s.delete().block();
                Http.send(ex, 200, Http.JSON, new byte[0]);
            }
            default -> {
                ex.getResponseHeaders().set("Allow", "GET, POST, DELETE");
                Http.error(ex, 405, ErrorCode.USAGE, method + " is not served at /mcp");
            }
        }
    }

    private void post(HttpExchange ex, String sessionId, String user) throws IOException {
        String body = service.inbound(sessionId == null ? "-" : sessionId, Http.body(ex));
        if (body == null) {
            Http.send(ex, 202, Http.JSON, new byte[0]); // a cancellation: acted on here
            return;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, body);
        } catch (IOException | IllegalArgumentException e) {
            throw new Http.BadRequest("the body is not one JSON-RPC message: " + e.getMessage());
        }
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            McpSchema.InitializeRequest init = json.convertValue(request.params(), new TypeRef<>() { });
            McpStreamableServerSession.McpStreamableServerSessionInit started = factory.startSession(init);
            users.put(started.session().getId(), user);
            sessions.put(started.session().getId(), started.session());
            McpSchema.InitializeResult result = started.initResult().block();
            ex.getResponseHeaders().set(SESSION, started.session().getId());
            Http.json(ex, 200, json.writeValueAsString(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION,
                    request.id(), result, null)));
            return;
        }
        McpStreamableServerSession session = sessionId == null ? null : sessions.get(sessionId);
        if (session == null) {
            Http.error(ex, sessionId == null ? 400 : 404, ErrorCode.NOT_FOUND, sessionId == null
                    ? "no " + SESSION + " header: initialize first" : "no MCP session " + sessionId + " (initialize again)");
            return;
        }
        if (message instanceof McpSchema.JSONRPCNotification n) {
            session.accept(n).block();
            Http.send(ex, 202, Http.JSON, new byte[0]);
        } else if (message instanceof McpSchema.JSONRPCResponse r) {
            session.accept(r).block();
            Http.send(ex, 202, Http.JSON, new byte[0]);
        } else if (message instanceof McpSchema.JSONRPCRequest request) {
            EventStream stream = new EventStream(ex);
            stream.open(sessionId);
            try {
                session.responseStream(request, stream).block();
            } finally {
                stream.end();
            }
        }
    }

    private void listen(HttpExchange ex, String sessionId) throws IOException {
        McpStreamableServerSession session = sessionId == null ? null : sessions.get(sessionId);
        if (session == null) {
            Http.error(ex, sessionId == null ? 400 : 404, ErrorCode.NOT_FOUND, "no MCP session " + sessionId);
            return;
        }
        EventStream stream = new EventStream(ex);
        stream.open(sessionId);
        McpStreamableServerSession.McpStreamableServerSessionStream listening = session.listeningStream(stream);
        try {
            stream.closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            listening.close();
            stream.end();
        }
    }

    /** One response's Server-Sent Events: each message an {@code event: message}, flushed as it goes. */
    private final class EventStream implements McpStreamableServerTransport {
        private final HttpExchange ex;
        private OutputStream out;
        final CountDownLatch closed = new CountDownLatch(1);

        EventStream(HttpExchange ex) {
            this.ex = ex;
        }

        void open(String sessionId) throws IOException {
            Http.common(ex, "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set(SESSION, sessionId);
            ex.sendResponseHeaders(200, 0);
            out = ex.getResponseBody();
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return sendMessage(message, null);
        }

        @Override
        public synchronized Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
            return Mono.fromRunnable(() -> {
                synchronized (this) {
                    try {
                        String data = json.writeValueAsString(message);
                        out.write(((messageId == null ? "" : "id: " + messageId + "\n") + "event: message\ndata: " + data
                                + "\n\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    } catch (IOException e) {
                        closed.countDown(); // the client went away
                    }
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return json.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(closed::countDown);
        }

        void end() {
            closed.countDown();
            ex.close();
        }
    }
}
