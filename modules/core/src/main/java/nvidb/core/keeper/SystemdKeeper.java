package nvidb.core.keeper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import nvidb.core.api.NvidbException;

/**
 * The systemd kind: the user unit {@code nvidb-queue.service}, which runs the daemon and restarts
 * it 5 s after it stops ({@code Restart=always}); SIGTERM stops it, and the daemon finishes its
 * pass within {@code TimeoutStopSec}. Managed with {@code systemctl --user}.
 */
final class SystemdKeeper {
    private static final Duration SYSTEMCTL_TIMEOUT = Duration.ofSeconds(150);

    /** What systemd accepts in an ExecStart executable's path (it refuses quotes, $, % and more there). */
    private static final Pattern SAFE_EXECUTABLE = Pattern.compile("[A-Za-z0-9/._+@:, -]+");

    private final KeeperFiles files;
    private final Commands commands;

    SystemdKeeper(KeeperFiles files, Commands commands) {
        this.files = files;
        this.commands = commands;
    }

    static String unit(Path home, Path nvidb, Path db, int interval) {
        if (!SAFE_EXECUTABLE.matcher(nvidb.toString()).matches()) {
            throw NvidbException.usage("systemd does not run an executable whose path holds quotes, $, % or"
                    + " backslashes: " + nvidb + "; link nvidb from a plainer path and pass that as --nvidb, or"
                    + " install the shell keeper (leave out --systemd)");
        }
        return "# Written by `nvidb queue keeper install --systemd`; `nvidb queue keeper uninstall` removes it.\n"
                + "[Unit]\n"
                + "Description=nvidb queue daemon of " + escape(home.toString()) + "\n"
                + "\n"
                + "[Service]\n"
                + "Type=simple\n"
                + "Environment=" + word("NVIDB_HOME=" + home) + "\n"
                + "ExecStart=" + word(nvidb.toString()) + " --db-path " + word(db.toString()) + " queue daemon --interval "
                + interval + "\n"
                + "Restart=always\n"
                + "RestartSec=5\n"
                + "KillSignal=SIGTERM\n"
                + "TimeoutStopSec=120\n"
                + "\n"
                + "[Install]\n"
                + "WantedBy=default.target\n";
    }

    /** One argument, double-quoted as systemd reads it: backslash escapes, %% for %, $$ for $. */
    private static String word(String value) {
        return "\"" + escape(value).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String escape(String value) {
        if (value.contains("\n") || value.contains("\r")) {
            throw NvidbException.usage("a path with a line break cannot go into a systemd unit: " + value.strip());
        }
        return value.replace("%", "%%").replace("$", "$$");
    }

    /** Refused before anything is written where there is no systemctl to manage the unit. */
    Path systemctl() {
        Path p = commands.find("systemctl");
        if (p == null) {
            throw NvidbException.failed("systemctl is not available here: install the shell keeper instead"
                    + " (leave out --systemd)");
        }
        return p;
    }

    /** Runs {@code systemctl --user ARGS}; a failure is an error naming what failed. */
    void systemctl(String... args) {
        Commands.Ran r = user(args);
        if (r.exit() != 0) {
            throw NvidbException.failed("systemctl --user " + String.join(" ", args) + " failed: " + r.said());
        }
    }

    private Commands.Ran user(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "--user";
        System.arraycopy(args, 0, all, 1, args.length);
        return commands.run(SYSTEMCTL_TIMEOUT, systemctl(), all);
    }

    /** The unit's main pid while it is active. */
    Optional<Long> running() {
        if (commands.find("systemctl") == null) {
            return Optional.empty();
        }
        if (!user("is-active", KeeperFiles.UNIT_NAME).out().strip().equals("active")) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(user("show", "-p", "MainPID", "--value", KeeperFiles.UNIT_NAME).out().strip());
            return Optional.of(pid);
        } catch (NumberFormatException e) {
            return Optional.of(0L);
        }
    }

    /** Enables and starts the unit; null when it did, else why not. */
    String start() {
        Commands.Ran r = user("enable", "--now", KeeperFiles.UNIT_NAME);
        return r.exit() == 0 ? null : r.said();
    }

    void stop() {
        if (commands.find("systemctl") != null) {
            user("disable", "--now", KeeperFiles.UNIT_NAME);
        }
    }

    List<String> logs(int lines) {
        Path journalctl = commands.find("journalctl");
        if (journalctl == null) {
            throw NvidbException.failed("journalctl is not available here, and the systemd keeper logs to the journal");
        }
        Commands.Ran r = commands.run(Duration.ofSeconds(30), journalctl, "--user", "-u", KeeperFiles.UNIT_NAME,
                "-n", String.valueOf(lines), "--no-pager");
        return r.out().lines().toList();
    }
}
