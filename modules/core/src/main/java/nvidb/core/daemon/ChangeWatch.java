package nvidb.core.daemon;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A sign that the database may be changing, so that the daemon reads {@code PRAGMA data_version}
 * often only then, and rarely ({@link #SAFETY_NET}) while nothing happens. Every commit in WAL
 * mode writes the {@code -wal} file, and inotify (the JDK's WatchService on Linux) reports the
 * write at once, whoever made it, at no cost while idle. The write comes before the commit is
 * complete (the fsync and the WAL index in shared memory follow, unseen), so after a sign the
 * daemon looks every {@link #HOT_STEP} for {@link #HOT} before it waits long again. Its own
 * writes give signs too; data_version, blind to them, sorts those out. Where no watch can be set
 * up, the daemon looks every {@link #HOT_STEP} all the time.
 *
 * <p>Measured (bench/daemon-latency.sh): polling data_version every 10 ms cost an idle daemon
 * about 1% of a core; with the watch it costs about a tenth of that, and a submit is seen as soon.
 */
final class ChangeWatch implements AutoCloseable {
    /** The longest wait without a look at data_version, should a sign be lost (an inotify overflow). */
    static final Duration SAFETY_NET = Duration.ofMillis(250);
    /** How often data_version is read while the database is being written, or always without a watch. */
    static final Duration HOT_STEP = Duration.ofMillis(10);
    /** How long after a sign the database counts as being written. */
    static final Duration HOT = Duration.ofMillis(500);

    private final WatchService watcher;
    private final Set<Path> names;
    private long lastSign = System.nanoTime();

    private ChangeWatch(WatchService watcher, Set<Path> names) {
        this.watcher = watcher;
        this.names = names;
    }

    static ChangeWatch on(Path database) {
        Path db = database.toAbsolutePath();
        Set<Path> names = Set.of(db.getFileName(), Path.of(db.getFileName() + "-wal"));
        try {
            WatchService w = FileSystems.getDefault().newWatchService();
            try {
                db.getParent().register(w, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
            } catch (IOException | RuntimeException e) {
                w.close();
                return new ChangeWatch(null, names);
            }
            return new ChangeWatch(w, names);
        } catch (IOException | RuntimeException e) {
            return new ChangeWatch(null, names);
        }
    }

    /** The longest one wait may take before data_version is read again. */
    Duration step() {
        return watcher == null || System.nanoTime() - lastSign < HOT.toNanos() ? HOT_STEP : SAFETY_NET;
    }

    /** Waits at most {@code max} for a write to the database's files. */
    void await(Duration max) throws InterruptedException {
        if (watcher == null) {
            Thread.sleep(max);
            return;
        }
        long deadline = System.nanoTime() + max.toNanos();
        WatchKey key = watcher.poll(max.toNanos(), TimeUnit.NANOSECONDS);
        while (key != null) {
            boolean sign = false;
            for (WatchEvent<?> e : key.pollEvents()) {
                sign |= e.kind() == StandardWatchEventKinds.OVERFLOW || names.contains((Path) e.context());
            }
            key.reset();
            long left = deadline - System.nanoTime();
            if (sign) {
                lastSign = System.nanoTime();
                return;
            }
            if (left <= 0) {
                return;
            }
            key = watcher.poll(left, TimeUnit.NANOSECONDS); // another file of the folder (a log): wait on
        }
    }

    @Override
    public void close() {
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                // closing on the way out
            }
        }
    }
}
