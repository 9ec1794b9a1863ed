package nvidb.plugins.transport.ssh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/**
 * An OpenSSH {@code known_hosts} file: plain and hashed ({@code |1|…}) host patterns,
 * {@code [host]:port} for ports other than 22, {@code @revoked} markers. Read afresh for each
 * check (a user may have just run {@code ssh-keyscan}); lines this code cannot read are skipped,
 * as OpenSSH skips them. {@code @cert-authority} lines are ignored: host certificates are not
 * accepted.
 */
final class KnownHosts {

    /** Appends from this JVM go one at a time. */
    private static final Object APPEND_LOCK = new Object();

    /** How a presented key relates to the file. */
    enum Verdict { KNOWN, UNKNOWN, CHANGED, REVOKED }

    /** A key the file holds for a host, with its line number. */
    record Entry(int line, String keyType, PublicKey key, boolean revoked) {
    }

    private final Path file;

    KnownHosts(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** The keys the file holds for {@code host} at {@code port} (revoked ones included). */
    List<Entry> entries(String host, int port) throws IOException {
        List<Entry> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            try {
                KnownHostEntry entry = KnownHostEntry.parseKnownHostEntry(t);
                if (entry == null || entry.getKeyEntry() == null || "cert-authority".equals(entry.getMarker())
                        || !entry.isHostMatch(host, port)) {
                    continue;
                }
                PublicKey key = entry.getKeyEntry().resolvePublicKey(null, PublicKeyEntryResolver.IGNORING);
                String type = KeyUtils.getCanonicalKeyType(entry.getKeyEntry().getKeyType());
                out.add(new Entry(n, type, key, "revoked".equals(entry.getMarker())));
            } catch (Exception | LinkageError unreadable) {
                // A line OpenSSH would also skip (or a key type this client cannot decode).
            }
        }
        return out;
    }

    /** The key types the file knows for the host, to ask the server for one of those first. */
    Set<String> knownTypes(String host, int port) {
        Set<String> types = new LinkedHashSet<>();
        try {
            for (Entry e : entries(host, port)) {
                if (!e.revoked()) {
                    types.add(e.keyType());
                }
            }
        } catch (IOException | RuntimeException e) {
            // the check itself will report the file
        }
        return types;
    }

    /**
     * Judges a presented key: KNOWN when a non-revoked line for the host holds it, REVOKED when
     * a revoked one does, CHANGED when the host has lines but none holds it, else UNKNOWN.
     */
    static Verdict judge(List<Entry> entries, PublicKey presented) {
        boolean any = false;
        boolean match = false;
        for (Entry e : entries) {
            boolean same = e.key() != null && KeyUtils.compareKeys(e.key(), presented);
            if (e.revoked()) {
                if (same) {
                    return Verdict.REVOKED;
                }
                continue;
            }
            any = true;
            match |= same;
        }
        return match ? Verdict.KNOWN : any ? Verdict.CHANGED : Verdict.UNKNOWN;
    }

    /**
     * Appends {@code host key} ({@code [host]:port key} for a port other than 22). Creates the
     * file owner-only (0600), and its folder 0700, when missing.
     */
    void append(String host, int port, PublicKey key) throws IOException {
        String line = hostPattern(host, port) + " " + PublicKeyEntry.toString(key) + "\n";
        synchronized (APPEND_LOCK) {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException exists) {
                // append below
            }
            byte[] existing = Files.readAllBytes(file);
            if (existing.length > 0 && existing[existing.length - 1] != '\n') {
                line = "\n" + line;
            }
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
    }

    /** How known_hosts names a host: {@code host}, or {@code [host]:port} off port 22. */
    static String hostPattern(String host, int port) {
        return port == 22 ? host : "[" + host + "]:" + port;
    }

    static String describe(PublicKey key) {
        return KeyUtils.getKeyType(key) + " key " + KeyUtils.getFingerPrint(key);
    }
}
