package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import nvidb.core.api.ErrorCode;
import nvidb.mcp.McpService;
import nvidb.core.api.NvidbException;

/**
 * The server: the JDK's {@code jdk.httpserver} (one JDK module, no jar), a virtual thread per
 * request, and in front of every route the same guard: the Host header on loopback, the token,
 * paths that cannot name anything outside what is served.
 */
final class WebServer implements Web.Server {
    /**
     * A request whose headers and body have not arrived within this many seconds is cut (a slow
     * client holds no connection for long). Read once by the JDK when its server class loads.
     */
    private static final String MAX_REQUEST_SECONDS = "10";

    private final HttpServer http;
    private final ExecutorService threads;
    private final Listen listen;
    private final Token token;
    private final Api api;
    private final EventStream stream;
    private final Passes passes;
    private final McpHttp mcp;

    private WebServer(HttpServer http, ExecutorService threads, Listen listen, Token token, Pool pool,
                      boolean ownPasses, McpService tools) {
        this.http = http;
        this.threads = threads;
        this.listen = listen;
        this.token = token;
        this.api = new Api(pool, tools);
        this.mcp = tools == null ? null : new McpHttp(tools, McpService.json());
        this.stream = new EventStream(pool);
        this.passes = ownPasses ? new Passes(pool) : null;
    }

    /** The names a loopback server answers to (the Host header less its port). */
    private static final Set<String> LOOPBACK_NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

    /** {@code Host: NAME[:PORT]} less the port, lower case; {@code [::1]:8765} gives {@code [::1]}. */
    static String hostName(String header) {
        String h = header.strip().toLowerCase(java.util.Locale.ROOT);
        int colon = h.lastIndexOf(':');
        return colon > h.lastIndexOf(']') ? h.substring(0, colon) : h;
    }

    static WebServer start(Web.Options options, Pool pool, McpService tools) throws IOException {
        Listen listen = Listen.parse(options.listen() == null ? Listen.DEFAULT : options.listen());
        Token token = Token.load(options.home());
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", MAX_REQUEST_SECONDS);
        }
        HttpServer http;
        try {
            http = HttpServer.create(listen.address(), 64);
        } catch (BindException e) {
            throw NvidbException.usage("cannot listen on " + options.listen() + ": " + e.getMessage()
                    + " (another server there? pick another port with --listen HOST:PORT)");
        }
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        http.setExecutor(threads);
        WebServer server = new WebServer(http, threads, listen, token, pool, options.ownPasses(), tools);
        http.createContext("/", server::handle);
        http.start();
        server.stream.start();
        if (server.passes != null) {
            server.passes.start();
        }
        return server;
    }

    @Override
    public URI url() {
        String host = listen.address().getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + http.getAddress().getPort() + "/");
    }

    @Override
    public URI urlWithToken() {
        return URI.create(url() + "#token=" + token.text());
    }

    @Override
    public boolean exposed() {
        return !listen.loopback();
    }

    @Override
    public void close() {
        if (passes != null) {
            passes.close();
        }
        stream.close();
        if (mcp != null) {
            mcp.close(true);
        }
        http.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            route(ex);
        } catch (Http.TooLarge e) {
            Http.error(ex, 413, ErrorCode.USAGE, e.getMessage());
        } catch (Http.BadRequest e) {
            Http.error(ex, 400, ErrorCode.USAGE, e.getMessage());
        } catch (NvidbException e) {
            Http.error(ex, Http.status(e.code().label()), e.code(), e.getMessage());
        } catch (IOException e) {
            ex.close(); // the client went away
        } catch (RuntimeException e) {
            Http.error(ex, 500, ErrorCode.FAILED, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private void route(HttpExchange ex) throws IOException {
        // DNS rebinding: a page of another site whose name now points at 127.0.0.1 still sends its own name.
        // Any port: a browser reaching this server through an ssh port forward (queue web with
        // remote:) sends the forward's port, and the name is what a rebinding page cannot fake.
        String host = ex.getRequestHeaders().getFirst("Host");
        if (listen.loopback() && (host == null || !LOOPBACK_NAMES.contains(hostName(host)))) {
            Http.error(ex, 403, ErrorCode.USAGE, "this server answers to 127.0.0.1, localhost or [::1],"
                    + " not to the host '" + host + "'");
            return;
        }
        String path = Paths.clean(ex.getRequestURI().getRawPath());
        String method = ex.getRequestMethod();
        if (path.equals("/mcp")) {
            mcp(ex);
            return;
        }
        boolean read = method.equals("GET") || method.equals("HEAD");
        if (!read && !method.equals("POST")) {
            ex.getResponseHeaders().set("Allow", "GET, HEAD, POST");
            Http.error(ex, 405, ErrorCode.USAGE, method + " is not served; reads are GET, actions POST");
            return;
        }
        if (read && Assets.serves(path)) {
            Assets.send(ex, path); // the page itself holds no data: no token needed to load it
            return;
        }
        Who who = who(ex, read, path);
        if (who == null) {
            // Nothing was read or changed; the same answer for a missing, a wrong and a revoked token.
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"nvidb\"");
            Http.error(ex, 401, ErrorCode.USAGE, read ? "reads from beyond loopback need a token:"
                    + " Authorization: Bearer <the token in $NVIDB_HOME/web.token, or your own from queue web token add>"
                    : "actions need a token: Authorization: Bearer <the token in $NVIDB_HOME/web.token, or your own"
                    + " from queue web token add>");
            return;
        }
        if (who.user() == null) {
            serve(ex, path, read);
        } else {
            ScopedValue.where(Pool.USER, who.user()).call(() -> {
                serve(ex, path, read);
                return null;
            });
        }
    }

    private void serve(HttpExchange ex, String path, boolean read) throws IOException {
        if (path.equals("/metrics") && read) {
            Metrics.send(ex, api.pool());
        } else if (path.equals("/api/v1/stream") && read) {
            stream.serve(ex);
        } else if (path.startsWith("/api/v1/")) {
            api.handle(ex, path.substring("/api/v1/".length()), read);
        } else {
            Http.error(ex, 404, ErrorCode.NOT_FOUND, "nothing is served at " + path);
        }
    }

    /** MCP over Streamable HTTP: every message needs a token, on loopback too (an agent acts). */
    private void mcp(HttpExchange ex) throws IOException {
        Who who = bearer(ex.getRequestHeaders().getFirst("Authorization"));
        if (who == null) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"nvidb\"");
            Http.error(ex, 401, ErrorCode.USAGE, "MCP needs a token: Authorization: Bearer <the token in"
                    + " $NVIDB_HOME/web.token, or your own from queue web token add>");
            return;
        }
        if (mcp == null) {
            Http.error(ex, 404, ErrorCode.NOT_FOUND, "this server does not serve MCP");
            return;
        }
        mcp.handle(ex, who.user() != null ? who.user() : nvidb.core.api.Caller.osAccount());
    }

    /**
     * Whose request this is, or null when it may not be served. The server's own token
     * ({@code web.token}) is this process's account; a per-user token (queue web token add) is its
     * user's, asked of the database each time, so a revoked one is refused at once. Actions always
     * need a token, in the Authorization header only (a cross-site form cannot set it, and no cookie
     * is ever used); reads need one beyond loopback, where the event stream may carry it as
     * {@code access_token} (a browser's EventSource sets no header).
     */
    private Who who(HttpExchange ex, boolean read, String path) {
        String header = ex.getRequestHeaders().getFirst("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            Who who = bearer(header);
            return who != null || !(read && listen.loopback()) ? who : Who.SERVER;
        }
        if (read && listen.loopback()) {
            return Who.SERVER;
        }
        return read && path.equals("/api/v1/stream") ? token(Http.query(ex).get("access_token")) : null;
    }

    private Who bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return token(header.substring(7).strip());
    }

    /** The server's token, a user's, or null (none, unknown, revoked). */
    private Who token(String offered) {
        if (offered == null || offered.isEmpty()) {
            return null;
        }
        if (token.matches(offered)) {
            return Who.SERVER;
        }
        return api.pool().with((app, caller) -> app.webTokens().userOf(offered)).map(Who::new).orElse(null);
    }

    /** The user a request acts for: null is this process's own account (the server's token, or a read on loopback). */
    record Who(String user) {
        static final Who SERVER = new Who(null);
    }
}
