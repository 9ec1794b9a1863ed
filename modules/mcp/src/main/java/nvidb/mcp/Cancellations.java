package nvidb.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client's {@code notifications/cancelled}, which the SDK's server does not act on: the
 * transport sees each message first ({@link #inbound}), tags every {@code tools/call} with a key of
 * its own in {@code _meta} (the handler cannot see the request's id otherwise), and a cancellation
 * of that request interrupts the thread running it, which ends a wait or a followed log early. The
 * jobs are never touched.
 */
final class Cancellations {
    /** The {@code _meta} key the transport adds to a tools/call request. */
    static final String KEY = "dev.nvidb/request";

    private final Map<String, Thread> running = new ConcurrentHashMap<>();
    private final Map<String, Boolean> cancelledEarly = new ConcurrentHashMap<>();

    /**
     * Looks at one message from the client of {@code session}: tags a tool call, acts on a
     * cancellation. Returns whether the SDK should still see it (a cancellation is consumed here).
     */
    boolean inbound(String session, JsonNode message) {
        if (!(message instanceof ObjectNode m)) {
            return true;
        }
        String method = m.path("method").asText("");
        if (method.equals("notifications/cancelled")) {
            JsonNode id = m.path("params").path("requestId");
            if (!id.isMissingNode()) {
                cancel(session + "/" + id.asText());
            }
            return false;
        }
        if (method.equals("tools/call") && m.hasNonNull("id") && m.path("params") instanceof ObjectNode params) {
            JsonNode meta = params.path("_meta");
            ObjectNode tagged = meta instanceof ObjectNode o ? o : params.putObject("_meta");
            tagged.put(KEY, session + "/" + m.get("id").asText());
        }
        return true;
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
