package nvidb.core.keeper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import nvidb.core.api.NvidbException;
import nvidb.core.api.ShellQuote;

/**
 * The shell kind: {@code queue-keeper.sh} in NVIDB_HOME (the resource of the same name, with this
 * install's values), a supervisor loop that {@code sh queue-keeper.sh start} detaches with
 * {@code setsid}. Its pid is in {@code queue-keeper.lock/pid}; it counts as running only while
 * that process carries the install's random token on its command line.
 */
final class ShellKeeper {
    /** How long {@code stop} may take: the script waits up to 120 s for the daemon's pass. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(130);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final KeeperFiles files;
    private final Commands commands;

    ShellKeeper(KeeperFiles files, Commands commands) {
        this.files = files;
        this.commands = commands;
    }

    /** The script for these values; every value is shell-quoted. */
    static String script(Path home, Path nvidb, Path db, int interval) {
        byte[] random = new byte[12];
        ThreadLocalRandom.current().nextBytes(random);
        String token = "nvidb-keeper-" + HexFormat.of().formatHex(random);
        return template().replace("@HOME@", ShellQuote.quote(home.toString()))
                .replace("@NVIDB@", ShellQuote.quote(nvidb.toString()))
                .replace("@DB@", ShellQuote.quote(db.toString()))
                .replace("@INTERVAL@", String.valueOf(interval))
                .replace("@TOKEN@", token);
    }

    private static String template() {
        try (InputStream in = ShellKeeper.class.getResourceAsStream("/nvidb/core/keeper/queue-keeper.sh")) {
            if (in == null) {
                throw new IllegalStateException("queue-keeper.sh is missing from nvidb.core");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read queue-keeper.sh: " + e.getMessage(), e);
        }
    }

    /** The supervisor's pid while it runs. */
    Optional<Long> running() {
        String token = token();
        if (token == null) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readString(files.pidFile()).strip());
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains(token)
                        || String.join(" ", p.info().arguments().orElse(new String[0])).contains(token))
                .map(ProcessHandle::pid);
    }

    private String token() {
        try {
            for (String line : Files.readAllLines(files.script())) {
                if (line.startsWith("token=")) {
                    return line.substring("token=".length()).strip().replace("'", "");
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** Starts the supervisor unless it runs; null when it runs afterwards, else why not. */
    String start() {
        Commands.Ran r = commands.run(START_TIMEOUT, sh(), files.script().toString(), "start");
        return r.exit() == 0 && running().isPresent() ? null : r.said();
    }

    /** Stops the supervisor (and so its daemon); it waits for the daemon's pass to end. */
    void stop() {
        if (Files.exists(files.script())) {
            commands.run(STOP_TIMEOUT, sh(), files.script().toString(), "stop");
        }
    }

    private Path sh() {
        Path sh = commands.find("sh");
        if (sh == null) {
            throw NvidbException.failed("no sh on PATH: the shell keeper needs a POSIX sh");
        }
        return sh;
    }
}
