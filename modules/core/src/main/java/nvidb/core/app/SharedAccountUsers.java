package nvidb.core.app;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;

/**
 * {@code nvidb queue users}: the users of a queue host's shared account, one line a key in that
 * account's {@code authorized_keys} ({@link AuthorizedKeyLine}), whose forced command runs nvidb as
 * the key's user. Only the lines nvidb wrote are added or removed; every other line stays as it
 * was. A change is written to a temporary file and moved over the old one, under a lock on a file
 * beside it, so two changes at once both land and sshd never reads half a file.
 */
public final class SharedAccountUsers {
    /** One user's key: as {@code queue users ls} lists it. */
    public record UserKey(String user, String keyType, String fingerprint) {
    }

    /** What {@code queue users rm} removed. */
    public record Removed(String user, List<UserKey> keys) {
    }

    /** An account-like name: what {@code login} accepts too. */
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
    /** Two threads of one JVM cannot both hold a file lock: they take turns here first. */
    private static final Object IN_PROCESS = new Object();

    private SharedAccountUsers() {
    }

    /** The file these commands manage when none is named: {@code ~/.ssh/authorized_keys}, {@code ~} as a shell has it. */
    public static Path defaultFile(java.util.Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home == null || home.isBlank() ? System.getProperty("user.home") : home, ".ssh", "authorized_keys");
    }

    /**
     * Registers {@code publicKeyFile}'s key for {@code user}: sshd then runs {@code nvidb queue users
     * login USER} for it. Refused: a name that is not account-like, a file that is not one public key,
     * a key the file already has (for this user or another, or on a line nvidb did not write).
     */
    public static UserKey add(Path authorizedKeys, String user, Path publicKeyFile, String nvidb) {
        refuseKeysUser("add a key");
        checkName(user);
        if (user.equals(Caller.processAccount())) {
            throw NvidbException.usage("'" + user + "' is this account's own name, and a key logs in as a person: name the"
                    + " key's holder (such as alice)");
        }
        if (nvidb == null || !nvidb.startsWith("/")) {
            throw NvidbException.usage("the forced command needs nvidb's absolute path, and this nvidb does not know its"
                    + " own; name it: --nvidb /opt/nvidb/bin/nvidb");
        }
        AuthorizedKeyLine key;
        try {
            key = AuthorizedKeyLine.publicKey(Files.readString(publicKeyFile, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw NvidbException.usage("no such public key file: " + publicKeyFile);
        } catch (IOException | java.io.UncheckedIOException e) {
            throw NvidbException.usage("could not read the public key file " + publicKeyFile + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw NvidbException.usage(publicKeyFile + " is not one OpenSSH public key (" + e.getMessage() + "): pass the"
                    + " .pub file ssh-keygen wrote, such as ~/.ssh/id_ed25519.pub");
        }
        AuthorizedKeyLine line = AuthorizedKeyLine.forUser(user, key.type(), key.key(), nvidb);
        change(authorizedKeys, lines -> {
            for (AuthorizedKeyLine existing : lines) {
                if (key.key().equals(existing.key())) {
                    throw NvidbException.conflict("this key is already in " + authorizedKeys + (existing.user() != null
                            ? ", for " + existing.user() + ": remove it first (nvidb queue users rm " + existing.user() + ")"
                            : ", on a line nvidb did not write (sshd uses the first line with a key): remove that line first"));
                }
            }
            List<AuthorizedKeyLine> changed = new ArrayList<>(lines);
            changed.add(line);
            return changed;
        });
        return view(line);
    }

    /** The users and their keys, in the file's order. */
    public static List<UserKey> list(Path authorizedKeys) {
        return read(authorizedKeys).stream().filter(l -> l.user() != null).map(SharedAccountUsers::view).toList();
    }

    /** Removes every key of {@code user}; a user with none is not found. */
    public static Removed remove(Path authorizedKeys, String user) {
        refuseKeysUser("remove keys");
        checkName(user);
        List<UserKey> removed = new ArrayList<>();
        change(authorizedKeys, lines -> {
            List<AuthorizedKeyLine> kept = new ArrayList<>();
            for (AuthorizedKeyLine l : lines) {
                if (user.equals(l.user())) {
                    removed.add(view(l));
                } else {
                    kept.add(l);
                }
            }
            if (removed.isEmpty()) {
                throw NvidbException.notFound("no key of " + user + " in " + authorizedKeys + " (nvidb queue users ls lists"
                        + " the users)");
            }
            return kept;
        });
        return new Removed(user, List.copyOf(removed));
    }

    /**
     * A key's user (a shared-account login) runs nvidb as the shared account, whose keys these are:
     * were they to change them, they could log in as anyone. Only the account itself, through a
     * shell its admins hold, does.
     */
    private static void refuseKeysUser(String action) {
        String vouched = Caller.vouched();
        if (vouched != null) {
            throw NvidbException.forbidden("you are " + vouched + " through a key of the shared account " + Caller.processAccount()
                    + ", and only that account itself may " + action + " (queue users add and rm run in its own shell)");
        }
    }

    private static UserKey view(AuthorizedKeyLine line) {
        return new UserKey(line.user(), line.type(), line.fingerprint());
    }

    /** Whether {@code user} is a name a key may log in as (the login entry asks too). */
    public static boolean isUserName(String user) {
        return user != null && NAME.matcher(user).matches();
    }

    private static void checkName(String user) {
        if (!isUserName(user)) {
            throw NvidbException.usage("a user name is account-like: a lowercase letter or _, then up to 31 lowercase"
                    + " letters, digits, _ or - (such as alice), not '" + user + "'");
        }
    }

    private static List<AuthorizedKeyLine> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(AuthorizedKeyLine::parse).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw NvidbException.failed("could not read " + file + ": " + e.getMessage());
        }
    }

    /** Reads, changes and writes the file under the lock: the folder 0700 and the file 0600 when they are new. */
    private static void change(Path file, UnaryOperator<List<AuthorizedKeyLine>> edit) {
        Path folder = file.toAbsolutePath().getParent();
        synchronized (IN_PROCESS) {
            try {
                if (!Files.isDirectory(folder)) {
                    Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                }
                Path lockFile = folder.resolve("." + file.getFileName() + ".nvidb-lock");
                try (FileChannel lock = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock held = lock.lock()) {
                    List<AuthorizedKeyLine> changed = edit.apply(read(file));
                    write(file, changed);
                }
            } catch (IOException e) {
                throw NvidbException.failed("could not change " + file + ": " + e.getMessage());
            }
        }
    }

    private static void write(Path file, List<AuthorizedKeyLine> lines) throws IOException {
        Path temp = Files.createTempFile(file.toAbsolutePath().getParent(), "." + file.getFileName(), ".nvidb-new",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            StringBuilder text = new StringBuilder();
            lines.forEach(l -> text.append(l.text()).append('\n'));
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            if (Files.exists(file)) {
                Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(file)); // as the admin left it
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
