package nvidb.cli.forward;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;
import nvidb.core.api.RemoteSettings;

/**
 * {@code nvidb mcp} where the configuration names a queue host: the server runs there
 * ({@code nvidb mcp} over one ssh session, {@link SshCommand#mcpSession}) and this process passes
 * the messages both ways, a line each. Chosen over forwarding each call: one login for the whole
 * session (a call costs a round trip, not an ssh connection and a JVM start), and progress, resource
 * updates and cancellations flow as they do locally. What it adds: a request the host never
 * answered because the connection broke gets an error answer ({@code unavailable}), and so does
 * every request after, so a client never hangs on a lost host.
 */
public final class McpRelay {
    private final RemoteSettings remote;
    private final String submitter;
    /** Requests sent to the host and not answered yet: id (as JSON text) → id. */
    private final Map<String, JsonNode> pending = new ConcurrentHashMap<>();
    private volatile boolean lost;

    /** {@code nvidb mcp} itself (not its config), without {@code --local}, help or version. */
    public static boolean wanted(String[] args, java.util.List<String> words) {
        if (!words.equals(java.util.List.of("mcp"))) {
            return false;
        }
        return java.util.Arrays.stream(args).noneMatch(java.util.Set.of("--local", "-h", "--help", "-V", "--version")::contains);
    }

    public McpRelay(RemoteSettings remote, String submitter) {
        this.remote = remote;
        this.submitter = submitter;
    }

    public int run(InputStream clientIn, OutputStream clientOut, PrintStream err) {
        Process ssh;
        try {
            ssh = new ProcessBuilder(SshCommand.mcpSession(remote, submitter))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new NvidbException(nvidb.core.api.ErrorCode.UNAVAILABLE, "could not run ssh to reach the queue host " + remote.host() + ": "
                    + e.getMessage());
        }
        Object writeLock = new Object();
        Thread fromHost = Thread.ofPlatform().daemon().name("nvidb-mcp-from-host").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(ssh.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    JsonNode m = parse(line);
                    if (m != null && m.has("id") && (m.has("result") || m.has("error"))) {
                        pending.remove(m.get("id").toString());
                    }
                    write(clientOut, writeLock, line);
                }
            } catch (IOException e) {
                // the connection broke: answered below
            }
            lost = true;
            pending.values().forEach(id -> write(clientOut, writeLock, lostAnswer(id)));
            pending.clear();
        });
        try (BufferedReader in = new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8));
             OutputStream toHost = ssh.getOutputStream()) {
            String line;
            while ((line = in.readLine()) != null) {
                JsonNode m = parse(line);
                boolean request = m != null && m.has("id") && m.has("method");
                if (lost) {
                    if (request) {
                        write(clientOut, writeLock, lostAnswer(m.get("id")));
                    }
                    continue;
                }
                if (request) {
                    pending.put(m.get("id").toString(), m.get("id"));
                }
                try {
                    toHost.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                    toHost.flush();
                } catch (IOException broken) {
                    lost = true;
                    if (request && pending.remove(m.get("id").toString()) != null) {
                        write(clientOut, writeLock, lostAnswer(m.get("id")));
                    }
                }
            }
        } catch (IOException e) {
            err.println("nvidb mcp: " + e.getMessage());
        } finally {
            // The client closed stdin: the host's server ends when its stdin does.
            try {
                if (!ssh.waitFor(5, TimeUnit.SECONDS)) {
                    ssh.destroy();
                }
                fromHost.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ssh.destroy();
            }
        }
        return 0;
    }

    private String lostAnswer(JsonNode id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32000,\"message\":"
                + Json.write("unavailable: the connection to the queue host " + remote.host()
                + " broke; nothing more reaches it from this session (restart the MCP server)") + "}}";
    }

    private static void write(OutputStream out, Object lock, String line) {
        synchronized (lock) {
            try {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException gone) {
                // the client went away
            }
        }
    }

    private static JsonNode parse(String line) {
        try {
            return Json.readTree(line);
        } catch (IOException notJson) {
            return null;
        }
    }
}
