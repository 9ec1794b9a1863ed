package nvidb.core.api;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * An open queue: the one surface the command line (and the coming TUI and daemon) work through.
 * Each object it hands out groups user-visible operations; each operation validates, writes in one
 * transaction, and says what happened.
 */
public interface Queue extends AutoCloseable {
    /**
     * Where the queue lives and the settings a status view shows; {@code webListen} is
     * {@code queue.web.listen} (where the daemon serves the web pages), or null; {@code admins}
     * is {@code queue.admins}, the accounts that may act on any job; {@code fairshare} is
     * {@code queue.fairshare} (the free pool's order).
     */
    record Info(Path database, long headroomMb, int maxJobsPerGpu, String placement, String webListen,
                java.util.List<String> admins, boolean fairshare) {
    }

    Info info();

    /**
     * A command's scheduler pass as {@code mode} says: when due ({@code AUTO}), now ({@code FORCE}),
     * or none. Its alert delivery spends 2 s at most, and none while a daemon serves the database.
     */
    TickSummary tick(TickMode mode);

    /**
     * A pass now, as {@code queue tick} makes it: its alert delivery may take the full 30 s (none
     * while a daemon serves the database, which delivers them).
     */
    TickSummary pass();

    /** Who holds the scheduler lease, if anyone. */
    Optional<Lease> tickLease();

    /** When the last pass finished, or null before the first. */
    Instant lastTickAt();

    /** How long the last finished pass took (ms), or -1 before the first. */
    long lastTickMillis();

    /**
     * The queue daemon serving this database (registered, and its process not known to be gone),
     * if any. While one does, a command's change wakes it instead of making a pass of its own.
     */
    Optional<DaemonInfo> daemon();

    /**
     * SQLite's {@code data_version} on this queue's connection: it changes whenever another
     * process commits to the database, never for this queue's own writes. A look that finds it
     * unchanged, after no pass of its own, can skip reading again.
     */
    long dataVersion();

    /** Submitting, cancelling, requeueing, releasing and purging jobs; acknowledging alerts. */
    JobCommands jobCommands();

    /** A job's note, result, priority, dispatch slot and dependencies. */
    JobEdits jobEdits();

    /** Jobs, events, alerts, counts and job logs. */
    JobQueries jobQueries();

    /** The nodes view; draining, resuming, ignoring and bringing back a node. */
    NodeAdmin nodeAdmin();

    /** Listing and showing lanes (one transaction each, no node contact). */
    LaneQueries laneQueries();

    /** Reordering lanes and what they may run (one transaction each, no node contact). */
    LaneOrdering laneOrdering();

    /** A lane's runner on its node: its status, switching it on or off, stopping or restarting it. */
    LaneRunners laneRunners();

    /** Parameter sweeps: submitting, listing, showing, cancelling and requeueing them. */
    Sweeps sweeps();

    /** Backing the database up while the queue works, and restoring a backup. */
    Backups backups();

    /**
     * Each user's fair-share standing as of the last pass (what that pass ordered by), what they
     * run and what waits, and their limits ({@code queue status}'s users), by name.
     */
    java.util.List<UserStanding> users();

    /** The per-user web tokens (by hash). */
    WebTokens webTokens();

    /** The GPUs' and the queue's history, as the passes recorded it (the web pages' plots). */
    History history();

    @Override
    void close();
}
