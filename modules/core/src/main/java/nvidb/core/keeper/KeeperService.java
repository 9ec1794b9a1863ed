package nvidb.core.keeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Keeper;
import nvidb.core.api.NvidbException;
import nvidb.core.store.FilePermissions;
import nvidb.core.util.Hostname;

/** Core's {@link Keeper}: the kind installed is what {@code queue-keeper.kind} in NVIDB_HOME says. */
public final class KeeperService implements Keeper {
    /** How long {@link #stop} waits for a daemon no keeper ran to finish its pass. */
    private static final Duration DAEMON_STOP = Duration.ofSeconds(120);

    private final KeeperFiles files;
    private final Path database;
    private final ShellKeeper shell;
    private final SystemdKeeper systemd;
    private final Supplier<Optional<DaemonInfo>> daemon;

    /**
     * @param daemon the daemon registered for the database, asked only when stopping (it opens the database)
     */
    public KeeperService(Path home, Path database, Map<String, String> env, Supplier<Optional<DaemonInfo>> daemon) {
        this.files = KeeperFiles.of(home, env);
        this.database = database;
        Commands commands = new Commands(env);
        this.shell = new ShellKeeper(files, commands);
        this.systemd = new SystemdKeeper(files, commands);
        this.daemon = daemon;
    }

    private String kind() {
        try {
            String k = Files.readString(files.kind()).strip();
            return SYSTEMD.equals(k) ? SYSTEMD : SHELL;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public State state() {
        String kind = kind();
        if (kind == null) {
            return new State(false, null, false, null, null, null, null);
        }
        if (SYSTEMD.equals(kind)) {
            Optional<Long> pid = systemd.running();
            return new State(true, kind, pid.isPresent(), pid.filter(p -> p > 0).orElse(null), null, files.unit(), null);
        }
        Optional<Long> pid = shell.running();
        return new State(true, kind, pid.isPresent(), pid.orElse(null), files.script(), null, files.log());
    }

    @Override
    public Installed install(InstallRequest request) {
        Path nvidb = request.nvidb();
        if (!nvidb.isAbsolute() || !Files.isRegularFile(nvidb) || !Files.isExecutable(nvidb)) {
            throw NvidbException.usage(nvidb + " is not an executable file; pass --nvidb with the path of the nvidb"
                    + " launcher (its bin/nvidb)");
        }
        if (request.interval() < 1) {
            throw NvidbException.usage("--interval takes a number of seconds ≥ 1, not " + request.interval());
        }
        String kind = request.systemd() ? SYSTEMD : SHELL;
        if (request.systemd()) {
            systemd.systemctl(); // refused here, before anything is written
            refuseForeignUnit();
        }
        String before = kind();
        if (before != null && !before.equals(kind)) {
            removeKind(before); // one keeper per home: the other kind goes
        } else if (before != null && request.start()) {
            stopKeeper(before); // started again below, with the new values
        }
        List<Path> written = new ArrayList<>();
        if (request.systemd()) {
            writeAtomically(files.unit(), SystemdKeeper.unit(files.home(), nvidb, database, request.interval()), false);
            written.add(files.unit());
        } else {
            writeAtomically(files.script(), ShellKeeper.script(files.home(), nvidb, database, request.interval()), true);
            written.add(files.script());
        }
        writeAtomically(files.kind(), kind + "\n", false);
        written.add(files.kind());
        if (request.systemd()) {
            try {
                systemd.systemctl("daemon-reload");
            } catch (NvidbException e) {
                written.forEach(KeeperService::deleteQuietly);
                throw e;
            }
        }
        String startError = request.start() ? start(kind) : null;
        String command = nvidb + " --db-path " + database + " queue daemon --interval " + request.interval();
        return new Installed(state(), written, before != null, command, startError);
    }

    /** The unit name is one per user: a unit another NVIDB_HOME installed is not taken over silently. */
    private void refuseForeignUnit() {
        try {
            if (Files.exists(files.unit())
                    && !Files.readString(files.unit()).contains("\"NVIDB_HOME=" + files.home() + "\"")) {
                throw NvidbException.conflict(files.unit() + " keeps the queue of another NVIDB_HOME; run `nvidb"
                        + " queue keeper uninstall` with that NVIDB_HOME first");
            }
        } catch (IOException e) {
            throw NvidbException.failed("cannot read " + files.unit() + ": " + e.getMessage());
        }
    }

    private String start(String kind) {
        return SYSTEMD.equals(kind) ? systemd.start() : shell.start();
    }

    @Override
    public State ensure() {
        String kind = kind();
        if (kind == null) {
            throw NvidbException.notFound("no keeper is installed for " + files.home()
                    + " (install one: nvidb queue keeper install --start)");
        }
        State now = state();
        if (!now.up()) {
            String error = start(kind);
            if (error != null) {
                throw NvidbException.failed("the keeper did not start: " + error
                        + (SHELL.equals(kind) ? " (its log: " + files.log() + ")" : ""));
            }
        }
        return state();
    }

    @Override
    public State stop() {
        String kind = kind();
        if (kind != null) {
            stopKeeper(kind);
        }
        stopDaemon();
        return state();
    }

    private void stopKeeper(String kind) {
        if (SYSTEMD.equals(kind)) {
            systemd.stop();
        } else {
            shell.stop();
        }
    }

    /**
     * A daemon still registered on this host after its keeper stopped (started by hand, or left
     * by a supervisor that was killed) gets SIGTERM too, and is waited for while it finishes its pass.
     */
    private void stopDaemon() {
        Optional<DaemonInfo> d = daemon.get().filter(i -> i.host().equals(Hostname.get()));
        if (d.isEmpty()) {
            return;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(d.get().pid()).filter(h -> String.join(" ",
                h.info().arguments().orElse(new String[0])).contains("daemon"));
        if (p.isEmpty()) {
            return;
        }
        p.get().destroy();
        try {
            p.get().onExit().get(DAEMON_STOP.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw NvidbException.interrupted();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw NvidbException.failed("the queue daemon (" + d.get().describe() + ") did not stop within "
                    + DAEMON_STOP.toSeconds() + " s of SIGTERM");
        }
    }

    @Override
    public List<Path> uninstall() {
        String kind = kind();
        if (kind == null) {
            throw NvidbException.notFound("no keeper is installed for " + files.home());
        }
        stop();
        return removeKind(kind);
    }

    /** Stops the keeper of {@code kind} and deletes its files; returns those that existed. */
    private List<Path> removeKind(String kind) {
        stopKeeper(kind);
        List<Path> removed = new ArrayList<>();
        List<Path> paths = SYSTEMD.equals(kind) ? List.of(files.unit(), files.kind()) : files.shellFiles();
        for (Path p : paths) {
            if (Files.exists(p)) {
                deleteQuietly(p);
                removed.add(p);
            }
        }
        if (SYSTEMD.equals(kind) && systemdAvailable()) {
            systemd.systemctl("daemon-reload");
        }
        return removed;
    }

    private boolean systemdAvailable() {
        try {
            systemd.systemctl();
            return true;
        } catch (NvidbException e) {
            return false;
        }
    }

    @Override
    public List<String> logs(int lines) {
        if (lines < 1) {
            throw NvidbException.usage("-n takes a number of lines ≥ 1, not " + lines);
        }
        String kind = kind();
        if (SYSTEMD.equals(kind)) {
            return systemd.logs(lines);
        }
        List<String> all = new ArrayList<>();
        for (Path p : List.of(files.oldLog(), files.log())) {
            try {
                all.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
            } catch (IOException e) {
                // not written yet
            }
        }
        return List.copyOf(all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private static void writeAtomically(Path target, String text, boolean executable) {
        try {
            if (!Files.isDirectory(target.getParent())) {
                // Folders made here are private (0700), as NVIDB_HOME must be; the user manager reads a user unit as its owner.
                FilePermissions.createPrivateDirectories(target.getParent());
            }
            Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
            try {
                // A running sh reads its script as it goes: a new inode leaves the running one whole.
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw NvidbException.failed("could not write the keeper's " + target + ": " + e.getMessage());
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            if (Files.isDirectory(p)) {
                try (var children = Files.list(p)) {
                    for (Path c : children.toList()) {
                        Files.deleteIfExists(c);
                    }
                }
            }
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // best effort: a file that stays makes status still say installed, which the user sees
        }
    }
}
