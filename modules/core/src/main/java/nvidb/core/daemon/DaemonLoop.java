package nvidb.core.daemon;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.Backups;
import nvidb.core.api.Daemon;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.queue.QueueService;
import nvidb.core.store.LeaseRepository;

/**
 * The daemon's loop: a forced pass, then a wait that ends when the interval runs out, when
 * another process commits to the database, or when a lane needs its next job staged soon
 * ({@link LaneFollowUp}). A commit is told by {@code PRAGMA data_version} on the queue's own
 * connection (blind to the daemon's own writes, so it never wakes itself), read whenever
 * {@link ChangeWatch} sees the database's files written, and a few times a second regardless. One thread does everything; {@link #stop} only sets a flag it reads
 * between passes, so a pass is always finished.
 */
public final class DaemonLoop implements Daemon {
    /** How soon to try again after another client's pass was in progress. */
    static final Duration RETRY = Duration.ofSeconds(1);

    /** Opens the queue with the configuration as the files say now. */
    @FunctionalInterface
    public interface Opener {
        QueueService open();
    }

    private final Opener opener;
    private final List<Path> configFiles;
    private final Duration interval;
    private final String owner;
    private final DaemonInfo registration;
    private final LaneFollowUp followUp = new LaneFollowUp();
    private final PeriodicBackup backups = new PeriodicBackup();
    private final ChangeWatch watch;
    private QueueService queue;
    private ConfigStamp stamp;
    private volatile boolean stopping;

    private DaemonLoop(Opener opener, List<Path> configFiles, Duration interval, QueueService queue,
                       ConfigStamp stamp, String owner, DaemonInfo registration) {
        this.opener = opener;
        this.configFiles = List.copyOf(configFiles);
        this.interval = interval;
        this.queue = queue;
        this.stamp = stamp;
        this.owner = owner;
        this.registration = registration;
        this.watch = ChangeWatch.on(queue.info().database());
    }

    /**
     * Opens the queue and registers this process as its daemon (unless {@code once}).
     *
     * @param configFiles the files whose change makes the daemon read its configuration again
     */
    public static DaemonLoop start(Opener opener, List<Path> configFiles, Duration interval, boolean once) {
        if (interval.isNegative() || interval.isZero()) {
            throw NvidbException.usage("the daemon's interval must be at least 1 second");
        }
        ConfigStamp stamp = ConfigStamp.of(configFiles); // before reading: an edit meanwhile is seen at the first pass
        QueueService queue = opener.open();
        try {
            if (once) {
                return new DaemonLoop(opener, configFiles, interval, queue, stamp, null, null);
            }
            String owner = LeaseRepository.newOwner();
            Instant now = Instant.now();
            Optional<DaemonInfo> other = queue.daemons().register(owner, ttl(queue, interval), now);
            if (other.isPresent()) {
                DaemonInfo d = other.get();
                throw NvidbException.conflict("a queue daemon already serves " + queue.info().database() + " ("
                        + d.describe() + ", since " + Times.iso(d.startedAt()) + "); it makes the passes, so this"
                        + " one is not needed (stop that one first to replace it)");
            }
            DaemonInfo me = queue.daemons().live(now).orElseThrow();
            return new DaemonLoop(opener, configFiles, interval, queue, stamp, owner, me);
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
    }

    /** The registration outlives a pass by far: the scheduler lease's TTL, and three intervals at least. */
    private static Duration ttl(QueueService queue, Duration interval) {
        return Duration.ofSeconds(Math.max(queue.config().settings().effectiveLockTtl(), 3 * interval.toSeconds()));
    }

    @Override
    public DaemonInfo registration() {
        return registration;
    }

    @Override
    public Duration interval() {
        return interval;
    }

    @Override
    public void run(Listener listener, Duties duties) {
        Wake wake = Wake.START;
        while (true) {
            reloadIfChanged(listener);
            long seen = queue.dataVersion(); // before the pass: a commit made during it wakes the next one
            Instant at = Instant.now();
            long started = System.nanoTime();
            TickSummary tick = pass(listener, duties.alerts());
            long ms = (System.nanoTime() - started) / 1_000_000;
            keepRegistration(tick);
            PeriodicBackup.Outcome backup = duties.backups() ? backups.takeIfDue(queue) : PeriodicBackup.Outcome.NONE;
            if (backup.backup() != null) {
                Backups.Backup b = backup.backup();
                listener.note("backup " + b.path() + " (" + b.bytes() + " bytes, " + b.tookMs() + " ms"
                        + (b.removed().isEmpty() ? "" : ", rotated out " + b.removed().size()) + ")");
            } else if (backup.error() != null) {
                listener.note("periodic backup failed (tried again in " + PeriodicBackup.RETRY.toMinutes()
                        + " minutes): " + backup.error());
            }
            if (tick != null) {
                listener.pass(new Pass(at, wake, ms, tick, backup.backup(), backup.error()));
            }
            if (owner == null || stopping) {
                return;
            }
            boolean locked = tick != null && "locked".equals(tick.skippedReason());
            Duration soon = locked ? RETRY : tick == null ? null : followUp.after(queue);
            wake = await(seen, soon);
            if (wake == null) {
                return;
            }
        }
    }

    private TickSummary pass(Listener listener, boolean notify) {
        try {
            // The registered daemon delivers the alerts; a single pass (--once) does unless a daemon runs.
            return owner != null || !notify ? queue.daemonPass(notify) : queue.pass();
        } catch (NvidbException e) {
            if (e.code() == ErrorCode.INTERRUPTED) {
                throw e;
            }
            listener.note("pass failed: " + e.getMessage());
        } catch (RuntimeException e) {
            listener.note("pass failed: " + e);
        }
        return null;
    }

    private void keepRegistration(TickSummary tick) {
        if (owner == null) {
            return;
        }
        if (!queue.daemons().passed(owner, ttl(queue, interval), Instant.now(), tick != null && tick.ran())) {
            stopping = true;
            String other = queue.daemon().map(DaemonInfo::describe).orElse("another process");
            throw NvidbException.conflict("this daemon's registration lapsed (it did not pass for longer than its"
                    + " lease) and " + other + " serves the database now; this one stops");
        }
    }

    /** Waits for the next pass; null once stopped. */
    private Wake await(long seen, Duration soon) {
        Wake reason = Wake.INTERVAL;
        long due = System.nanoTime() + interval.toNanos();
        if (soon != null && soon.compareTo(interval) < 0) {
            reason = soon == RETRY ? Wake.RETRY : Wake.FOLLOW_UP;
            due = System.nanoTime() + soon.toNanos();
        }
        while (!stopping) {
            if (queue.dataVersion() != seen) {
                return Wake.CHANGE;
            }
            long left = due - System.nanoTime();
            if (left <= 0) {
                return reason;
            }
            try {
                watch.await(Duration.ofNanos(Math.min(left, watch.step().toNanos())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private void reloadIfChanged(Listener listener) {
        ConfigStamp now = ConfigStamp.of(configFiles);
        if (now.equals(stamp)) {
            return;
        }
        stamp = now;
        QueueService fresh;
        try {
            fresh = opener.open();
        } catch (NvidbException e) {
            listener.note("configuration not reloaded, passes go on with the one read before: " + e.getMessage());
            return;
        }
        QueueService old = queue;
        queue = fresh;
        old.close();
        listener.note("configuration reloaded");
    }

    @Override
    public void stop() {
        stopping = true;
    }

    @Override
    public void close() {
        try {
            if (owner != null) {
                queue.daemons().release(owner);
            }
        } catch (RuntimeException e) {
            // the dead-pid rule frees it once this process is gone
        } finally {
            watch.close();
            queue.close();
        }
    }
}
