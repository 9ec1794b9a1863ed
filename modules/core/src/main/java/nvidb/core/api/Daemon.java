package nvidb.core.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The queue daemon ({@code nvidb queue daemon}): scheduler passes every interval and at once when
 * the database changes (a submit, cancel, requeue, release, lane reorder: any other process's
 * commit), on one long-lived queue whose node connections stay open between passes. One per
 * database: it is registered when made, and given back by {@link #close}.
 */
public interface Daemon extends AutoCloseable {
    /** What made a pass. */
    enum Wake {
        /** The first pass. */
        START,
        /** The interval ran out. */
        INTERVAL,
        /** Another process changed the database. */
        CHANGE,
        /** A lane runner was handed work on an idle lane: a pass soon after stages the lane's next job. */
        FOLLOW_UP,
        /** The last attempt found another client's pass in progress. */
        RETRY;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One pass as the daemon made it.
     *
     * @param at          when it started
     * @param wokenBy     what made it
     * @param durationMs  how long it took
     * @param tick        what it did (skipped {@code locked} when another client's pass was in
     *                    progress); its {@code notified} counts the alerts it delivered
     * @param backup      the periodic backup it took after the pass ({@code queue.backup}), or null
     * @param backupError why the periodic backup that was due failed, or null
     */
    record Pass(Instant at, Wake wokenBy, long durationMs, TickSummary tick, Backups.Backup backup,
                String backupError) {
    }

    /** Hears of each pass, and of the few things worth a line in a log; called on the daemon's thread. */
    interface Listener {
        void pass(Pass pass);

        /** A configuration reloaded or not, a pass that failed, the registration lost. */
        void note(String message);
    }

    /** This daemon's registration; null for a single pass ({@code --once}), which registers nothing. */
    DaemonInfo registration();

    Duration interval();

    /**
     * What a pass does beside the scheduler pass itself (the reference's {@code --no-notify} and
     * {@code --no-backup} switch them off).
     *
     * @param alerts  deliver alerts (while registered, no other process does)
     * @param backups take the periodic backups of {@code queue.backup}
     */
    record Duties(boolean alerts, boolean backups) {
        public static final Duties ALL = new Duties(true, true);
    }

    /**
     * Makes passes until {@link #stop} (one pass only for {@code --once}), then returns. A pass in
     * progress is always finished. Refused ({@link ErrorCode#CONFLICT}) when the registration was
     * lost to another daemon meanwhile (this one was frozen past its lease).
     */
    void run(Listener listener, Duties duties);

    /** Asks {@link #run} to return after the pass in progress; from any thread (a signal handler). */
    void stop();

    /** Gives back the registration, the node connections and the database. */
    @Override
    void close();
}
