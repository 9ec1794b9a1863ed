package nvidb.core.keeper;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where a keeper's files are: all in {@code NVIDB_HOME} but the systemd unit, which systemd looks
 * for in {@code ${XDG_CONFIG_HOME:-~/.config}/systemd/user}.
 *
 * @param kind the file naming the kind installed (shell or systemd): its presence is "installed"
 */
record KeeperFiles(Path home, Path script, Path lock, Path pidFile, Path log, Path oldLog, Path kind, Path unit) {
    static final String UNIT_NAME = "nvidb-queue.service";

    static KeeperFiles of(Path home, Map<String, String> env) {
        String xdg = env.get("XDG_CONFIG_HOME");
        String userHome = env.getOrDefault("HOME", System.getProperty("user.home"));
        Path config = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(userHome, ".config");
        Path lock = home.resolve("queue-keeper.lock");
        return new KeeperFiles(home, home.resolve("queue-keeper.sh"), lock, lock.resolve("pid"),
                home.resolve("queue-keeper.log"), home.resolve("queue-keeper.log.1"), home.resolve("queue-keeper.kind"),
                config.resolve("systemd").resolve("user").resolve(UNIT_NAME));
    }

    /** Everything a shell keeper leaves in NVIDB_HOME (the lock directory's pid file included). */
    List<Path> shellFiles() {
        return List.of(script, pidFile, lock, log, oldLog, kind);
    }
}
