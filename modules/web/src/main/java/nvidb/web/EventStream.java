package nvidb.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Event;
import nvidb.core.api.Json;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Times;
import nvidb.core.view.EventView;

/**
 * {@code GET /api/v1/stream}: Server-Sent Events. A watcher reads the event log every
 * {@link #LOOK}; each new entry goes to every open stream as {@code event: change} with the
 * entry's id and the document {@code queue events} prints for it, and each finished pass as
 * {@code event: pass}. A browser that reconnects sends {@code Last-Event-ID} and is first sent
 * what it missed. A stream whose reader falls {@link #BACKLOG} messages behind is cut; at most
 * {@link #MAX_STREAMS} are open at once.
 */
final class EventStream implements AutoCloseable {
    /** How often the event log is read: a commit reaches the browsers within this and a fetch. */
    static final long LOOK = 200;
    static final int MAX_STREAMS = 32;
    private static final int BACKLOG = 256;
    /** A comment line this often keeps proxies and the browser from thinking the stream dead. */
    private static final long PING_SECONDS = 15;
    private static final int CATCH_UP_LIMIT = 1000;

    private record Message(Long id, String text) {
    }

    private final Pool pool;
    private final Set<BlockingQueue<Message>> clients = ConcurrentHashMap.newKeySet();
    private volatile long lastId;
    private volatile Instant lastTick;
    private volatile boolean closed;
    private Thread watcher;

    EventStream(Pool pool) {
        this.pool = pool;
    }

    void start() {
        JobQueries.EventPage newest = pool.with((app, caller) -> app.eventPage(caller, null, null, 1));
        lastId = newest.lastId();
        lastTick = pool.with((app, caller) -> app.lastTickAt());
        watcher = Thread.ofVirtual().name("nvidb-web-watch").start(this::watch);
    }

    private void watch() {
        while (!closed) {
            try {
                look();
                Thread.sleep(LOOK);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The database was busy or briefly unreadable: the next look tries again.
                sleepQuietly();
            }
        }
    }

    private void look() {
        long since = lastId;
        boolean news = !pool.with((app, caller) -> app.eventPage(caller, since, null, 1)).events().isEmpty();
        if (news) {
            for (Map.Entry<Long, String> e : events(since, 200).entrySet()) {
                broadcast(new Message(e.getKey(), frame(e.getKey(), "change", e.getValue())));
                lastId = Math.max(lastId, e.getKey());
            }
        }
        Instant tick = pool.with((app, caller) -> app.lastTickAt());
        if (tick != null && !tick.equals(lastTick)) {
            lastTick = tick;
            broadcast(new Message(null, frame(null, "pass", "{\"last_tick_at\":\"" + Times.iso(tick) + "\"}")));
        }
    }

    /** The events after {@code since}, by id, each as {@code queue events --json} shows it, on one line. */
    private Map<Long, String> events(long since, int limit) {
        JobQueries.EventPage page = pool.with((app, caller) -> app.eventPage(caller, since, null, limit));
        Map<Long, String> out = new java.util.LinkedHashMap<>();
        for (Event e : page.events()) {
            out.put(e.id(), Json.write(EventView.of(e)));
        }
        return out;
    }

    private void broadcast(Message m) {
        for (BlockingQueue<Message> c : clients) {
            if (!c.offer(m)) {
                // Too far behind to catch up in memory: cut; the browser reconnects and catches up by id.
                clients.remove(c);
                c.clear();
                c.offer(new Message(null, null));
            }
        }
    }

    void serve(HttpExchange ex) throws IOException {
        if (clients.size() >= MAX_STREAMS) {
            ex.getResponseHeaders().set("Retry-After", "5");
            Http.error(ex, 503, ErrorCode.UNAVAILABLE, "too many open streams (" + MAX_STREAMS + "); try again later");
            return;
        }
        String last = ex.getRequestHeaders().getFirst("Last-Event-ID");
        if (last == null) {
            last = Http.query(ex).get("since");
        }
        if (last != null && !last.strip().matches("[0-9]{1,18}")) {
            throw new Http.BadRequest("Last-Event-ID is an event id, not '" + last + "'");
        }
        BlockingQueue<Message> mine = new ArrayBlockingQueue<>(BACKLOG);
        clients.add(mine); // first, so nothing committed during the catch-up is lost
        Http.common(ex, "text/event-stream; charset=utf-8");
        ex.sendResponseHeaders(200, 0);
        long sent = last == null ? lastId : Long.parseLong(last.strip());
        try (OutputStream out = ex.getResponseBody()) {
            write(out, "retry: 1000\n" + frame(sent, "hello", "{\"last_id\":" + sent + "}"));
            if (last != null) {
                for (Map.Entry<Long, String> e : events(sent, CATCH_UP_LIMIT).entrySet()) {
                    write(out, frame(e.getKey(), "change", e.getValue()));
                    sent = e.getKey();
                }
            }
            while (!closed) {
                Message m = mine.poll(PING_SECONDS, TimeUnit.SECONDS);
                if (m == null) {
                    write(out, ": ping\n\n");
                } else if (m.text() == null) {
                    break; // cut by broadcast
                } else if (m.id() == null || m.id() > sent) {
                    write(out, m.text());
                    sent = m.id() == null ? sent : m.id();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the browser went away
        } finally {
            clients.remove(mine);
            ex.close();
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String frame(Long id, String event, String data) {
        return (id == null ? "" : "id: " + id + "\n") + "event: " + event + "\ndata: " + data + "\n\n";
    }

    int open() {
        return clients.size();
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        if (watcher != null) {
            watcher.interrupt();
        }
        for (BlockingQueue<Message> c : clients) {
            c.clear();
            c.offer(new Message(null, null));
        }
    }
}
