package nvidb.core.store;

import java.nio.file.Files;
import java.nio.file.Path;
import nvidb.core.api.Times;

/**
 * A separate process for {@link ConcurrentOpenTest}: announces it is up, waits for the shared
 * start gate, opens the database (fresh for whoever comes first) and submits one job.
 * Arguments: database path, ready-marker path, gate path, job name. Prints {@code id=N}.
 */
public final class OpenAndInsertMain {
    private OpenAndInsertMain() {
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        Path ready = Path.of(args[1]);
        Path gate = Path.of(args[2]);
        String name = args[3];
        Class.forName("org.sqlite.JDBC"); // load the driver (and its native library) before the gate
        Files.createFile(ready);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.exists(gate)) {
            if (System.nanoTime() > deadline) {
                System.err.println("the start gate never opened");
                System.exit(3);
            }
            Thread.sleep(2);
        }
        try (Store s = Store.open(db)) {
            long id = s.db.write(() -> s.jobs.insert(StoreFixtures.job(name), Times.now()));
            System.out.println("id=" + id);
        }
    }
}
