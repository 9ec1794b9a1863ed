package nvidb.core.api;

import java.nio.file.Path;
import java.util.List;

/**
 * The keeper of a queue host ({@code nvidb queue keeper}): something that keeps {@code nvidb queue
 * daemon} running for this machine's database, restarting it whenever it stops. Either a POSIX
 * {@code sh} supervisor written into {@code NVIDB_HOME} and started detached ({@code setsid}; no
 * root, cron or service manager), or a systemd user unit.
 */
public interface Keeper {
    /** The shell supervisor. */
    String SHELL = "shell";
    /** The systemd user unit {@code nvidb-queue.service}. */
    String SYSTEMD = "systemd";

    /**
     * Where the keeper stands.
     *
     * @param installed an install wrote it and no uninstall removed it
     * @param kind      {@link #SHELL} or {@link #SYSTEMD}; null when not installed
     * @param up        it runs now (the supervisor process, or the unit active)
     * @param pid       the supervisor's pid (the unit's main pid), or null
     * @param script    the supervisor script (the shell kind), or null
     * @param unit      the unit file (the systemd kind), or null
     * @param log       where its own lines go (the shell kind), or null
     */
    record State(boolean installed, String kind, boolean up, Long pid, Path script, Path unit, Path log) {
    }

    /**
     * @param nvidb    the nvidb executable the keeper runs (absolute)
     * @param interval the daemon's {@code --interval}, in seconds
     * @param systemd  a systemd user unit instead of the shell supervisor
     * @param start    start it right after
     */
    record InstallRequest(Path nvidb, int interval, boolean systemd, boolean start) {
    }

    /**
     * @param files      every file the install wrote
     * @param replaced   a keeper was installed before (of either kind; one of the other kind was removed)
     * @param command    the command line the keeper runs
     * @param startError why it did not start, when asked to start; else null
     */
    record Installed(State state, List<Path> files, boolean replaced, String command, String startError) {
    }

    State state();

    /** Writes the keeper (replacing one installed before) and starts it when asked. */
    Installed install(InstallRequest request);

    /** Starts the keeper when it is installed and down; says whether it runs afterwards. Not installed: not found. */
    State ensure();

    /** Stops the keeper and the daemon it keeps (which finishes its pass first). */
    State stop();

    /** Stops the keeper and removes every file its install wrote; returns what it removed. */
    List<Path> uninstall();

    /** The last {@code lines} lines of the keeper's log (the unit's journal for the systemd kind). */
    List<String> logs(int lines);
}
