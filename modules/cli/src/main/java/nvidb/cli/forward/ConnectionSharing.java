package nvidb.cli.forward;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.RemoteSettings;

/**
 * One OpenSSH connection per queue host, shared by the forwarded commands (ControlMaster): the
 * first command's ssh opens it and leaves it open for {@link #PERSIST_SECONDS} after the last
 * session ends (ControlPersist), so a later command skips the key exchange and login and costs a
 * new session on the open connection. A master that died leaves a socket nothing answers: ssh
 * removes it and opens a new connection itself (ControlMaster=auto).
 *
 * <p>The control socket lives in {@code NVIDB_HOME/ssh}, a folder only its user may enter (0700):
 * whoever can open the socket can run commands on the host as that user. Its name is short (a
 * unix socket path has at most 107 bytes, and ssh first binds it under a name 17 bytes longer);
 * where even that is too long, or the folder cannot be made private, commands connect each on
 * their own, as without sharing. A {@code ControlMaster} or {@code ControlPath} of the user's own
 * in {@code ssh_options} means they manage sharing themselves ({@code ControlMaster=no}: none),
 * and none is added.
 *
 * <p>An ssh that shares a connection is a multiplexing client, and OpenSSH's client of that kind
 * ends its session on SIGINT even when started with SIGINT ignored: a terminal's Ctrl-C, which
 * reaches the whole foreground process group, would cut the session before the host command
 * answers. So the forwarded ssh runs in a session of its own ({@code setsid}, see ForwardClient),
 * and the client relays the signal through the protocol as before. That ssh has no terminal to
 * ask for a password on: sharing suits key or agent logins, and where {@code setsid} is missing
 * (not Linux) commands connect each on their own.
 */
final class ConnectionSharing {
    /** How long an idle shared connection stays open. */
    static final int PERSIST_SECONDS = 600;
    /** sun_path holds 108 bytes with its NUL; ssh binds "PATH.XXXXXXXXXXXXXXXX" first, then renames it. */
    static final int MAX_SOCKET_PATH = 107 - 17;
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");

    private ConnectionSharing() {
    }

    /**
     * The ssh options that share one connection to {@code remote}'s host, with the control socket
     * under {@code home}; none where the socket cannot be placed there safely.
     */
    static List<String> options(RemoteSettings remote, Path home) {
        if (remote.sshOptions().stream().anyMatch(ConnectionSharing::controlsSharing)) {
            return List.of();
        }
        return socket(remote, home).map(path -> List.of("ControlMaster=auto",
                "ControlPath=" + path.toString().replace("%", "%%"), // ssh expands %-tokens in it
                "ControlPersist=" + PERSIST_SECONDS)).orElse(List.of());
    }

    /** {@code ControlMaster=…}, {@code ControlPath …}: an ssh option that decides sharing. */
    private static boolean controlsSharing(String option) {
        String name = option.strip().split("[\\s=]", 2)[0].toLowerCase(java.util.Locale.ROOT);
        return name.equals("controlmaster") || name.equals("controlpath");
    }

    /** The control socket for {@code remote}'s host under {@code home}, its private folder made. */
    static Optional<Path> socket(RemoteSettings remote, Path home) {
        Path dir = home.toAbsolutePath().resolve("ssh");
        Path socket = dir.resolve(name(remote));
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            return Optional.empty();
        }
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PRIVATE));
            }
            // Made here by an older umask, or by hand: a socket that lets others in is no socket of ours.
            if (!Files.getPosixFilePermissions(dir).equals(PRIVATE)) {
                Files.setPosixFilePermissions(dir, PRIVATE);
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
        return Optional.of(socket);
    }

    /**
     * {@code cm-} and 12 hex digits (48 bits) of a hash of user, host and port: one connection per
     * login to a host. The hash is 64-bit FNV-1a, not a digest of {@code java.security}: the logins
     * are the user's own few, chosen by nobody hostile, so only accidental collisions matter (odds
     * of ~k²/2^49 for k logins), and a digest first sets up the JDK's security providers, ~15 ms
     * of every forwarded command.
     */
    static String name(RemoteSettings remote) {
        String login = (remote.username() == null ? "" : remote.username()) + "@" + remote.host() + ":"
                + (remote.port() == null ? "" : remote.port());
        long hash = 0xcbf29ce484222325L; // FNV-1a's 64-bit offset basis
        for (byte b : login.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L; // and its 64-bit prime
        }
        return "cm-" + HexFormat.of().toHexDigits(hash).substring(0, 12);
    }
}
