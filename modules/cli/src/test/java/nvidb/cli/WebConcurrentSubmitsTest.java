package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many clients POST /api/v1/jobs at once to one server, whose requests run on virtual threads
 * with a connection each: every submit is answered and stored. (Before writers took turns in the
 * process, the threads waiting for SQLite's lock pinned every carrier while the one holding it
 * could not run to commit: requests stalled for the busy timeout, again and again.)
 */
class WebConcurrentSubmitsTest {
    private static final int CLIENTS = 8;
    private static final int EACH = 40;

    @TempDir
    Path tmp;

    @Test
    void eightClientsSubmittingAtOnceAreEachAnsweredAndStored() throws Exception {
        try (WebFixture web = new WebFixture(tmp).startWithSubmits("127.0.0.1:0");
             ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
            String token = web.token();
            Set<Long> ids = ConcurrentHashMap.newKeySet();
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    for (int i = 0; i < EACH; i++) {
                        HttpResponse<String> r = web.post("/api/v1/jobs", token,
                                "{\"gpus\": 0, \"no_tick\": true, \"name\": \"c" + client + "-" + i + "\", \"command\": [\"true\"]}");
                        assertEquals(201, r.statusCode(), r.body());
                        ids.add(Cli.JSON.readTree(r.body()).path("job").path("id").asLong());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                // Generous: on a loaded 2-core machine this takes seconds; the stall took minutes.
                f.get(180, TimeUnit.SECONDS);
            }
            assertEquals(CLIENTS * EACH, ids.size(), "each submit got an id of its own");
            assertTrue(ids.stream().allMatch(id -> id > 0), ids.toString());
            assertEquals(CLIENTS * EACH, web.cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs").size());
        }
    }
}
