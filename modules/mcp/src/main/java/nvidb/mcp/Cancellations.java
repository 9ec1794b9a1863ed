package nvidb.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client's {@code notifications/cancelled}, which the SDK's server does not act on: the
 * transport shows each message here first ({@link #inbound}), which tags every {@code tools/call}
 * with a key of its own in {@code _meta} (the handler cannot see the request's id otherwise); a
 * cancellation of that request interrupts the thread running it, which ends a wait or a followed
 * log early. The jobs are never touched.
 */
final class Cancellations {
    /** The {@code _meta} key the transport adds to a tools/call request. */
    static final String KEY = "dev.nvidb/request";

    private final Map<String, Thread> running = new ConcurrentHashMap<>();
    private final Map<String, Boolean> cancelledEarly = new ConcurrentHashMap<>();

    /**
     * One message (JSON text) from the client of {@code session}, as the SDK should read it: a tool
     * call tagged, a cancellation acted on and dropped (null), anything else as it came.
     */
    String inbound(String session, String text) {
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(McpService.JSON, text);
        } catch (IOException | RuntimeException notAMessage) {
            return text; // the SDK answers it with its own error
        }
        if (message instanceof McpSchema.JSONRPCNotification n && "notifications/cancelled".equals(n.method())) {
            if (n.params() instanceof Map<?, ?> params && params.get("requestId") != null) {
                cancel(session + "/" + params.get("requestId"));
            }
            return null;
        }
        if (message instanceof McpSchema.JSONRPCRequest r && McpSchema.METHOD_TOOLS_CALL.equals(r.method())
                && r.id() != null && r.params() instanceof Map<?, ?> params) {
            Map<String, Object> tagged = new LinkedHashMap<>();
            params.forEach((k, v) -> tagged.put(String.valueOf(k), v));
            Map<String, Object> meta = new LinkedHashMap<>();
            if (tagged.get("_meta") instanceof Map<?, ?> given) {
                given.forEach((k, v) -> meta.put(String.valueOf(k), v));
            }
            meta.put(KEY, session + "/" + r.id());
            tagged.put("_meta", meta);
            try {
                return McpService.JSON.writeValueAsString(new McpSchema.JSONRPCRequest(r.jsonrpc(), r.method(), r.id(), tagged));
            } catch (IOException e) {
                return text;
            }
        }
        return text;
    }

    /** The call tagged {@code key} runs on this thread until {@link #done}. */
    void started(String key) {
        if (key == null) {
            return;
        }
        running.put(key, Thread.currentThread());
        if (cancelledEarly.remove(key) != null) {
            Thread.currentThread().interrupt();
        }
    }

    void done(String key) {
        if (key != null) {
            running.remove(key);
            Thread.interrupted(); // an interrupt that came late must not reach the next call on this thread
        }
    }

    private void cancel(String key) {
        Thread t = running.get(key);
        if (t != null) {
            t.interrupt();
        } else if (cancelledEarly.size() < 1000) {
            cancelledEarly.put(key, Boolean.TRUE); // the call has not started yet
        }
    }

    /** Every call still running ends (the client went away). */
    void cancelAll() {
        running.values().forEach(Thread::interrupt);
    }
}
