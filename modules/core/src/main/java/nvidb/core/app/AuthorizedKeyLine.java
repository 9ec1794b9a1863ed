package nvidb.core.app;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.core.api.ShellQuote;

/**
 * One line of an OpenSSH {@code authorized_keys} file, as far as nvidb reads it: the key (type and
 * base64 blob) and, on the lines nvidb writes, the user it logs in as. Those lines are
 * {@code command="NVIDB queue users login NAME",restrict TYPE KEY nvidb-user:NAME}: sshd runs the
 * forced command for that key whatever the client asked, and {@code restrict} (OpenSSH 7.2 and
 * later) takes away the pty and every forwarding (port, agent, X11). Every other line is kept as
 * it is, byte for byte.
 *
 * @param text  the line as in the file
 * @param type  the key's type ({@code ssh-ed25519}), or null on a line that holds no key
 * @param key   the key's base64 blob, or null
 * @param user  the user of a line nvidb wrote, or null
 */
record AuthorizedKeyLine(String text, String type, String key, String user) {
    static final String MARK = "nvidb-user:";
    private static final Set<String> TYPES = Set.of("ssh-ed25519", "ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256",
            "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
            "sk-ecdsa-sha2-nistp256@openssh.com");
    private static final Pattern NVIDB_LINE = Pattern.compile(
            "command=\"[^\"]* queue users login ([a-z_][a-z0-9_-]{0,31})\",restrict \\S+ \\S+ " + MARK + "(\\S+)");

    /** Reads one line of the file. */
    static AuthorizedKeyLine parse(String text) {
        List<String> words = words(text);
        for (int i = 0; i + 1 < words.size(); i++) {
            if (TYPES.contains(words.get(i))) {
                Matcher m = NVIDB_LINE.matcher(text.strip());
                String user = m.matches() && m.group(1).equals(m.group(2)) ? m.group(1) : null;
                return new AuthorizedKeyLine(text, words.get(i), words.get(i + 1), user);
            }
        }
        return new AuthorizedKeyLine(text, null, null, null);
    }

    /**
     * The public key a {@code .pub} file holds: exactly one line {@code TYPE BASE64 [COMMENT]} (blank
     * lines and {@code #} comments aside), whose blob decodes and names the same type.
     *
     * @throws IllegalArgumentException saying what the file holds instead
     */
    static AuthorizedKeyLine publicKey(String content) {
        List<String> lines = content.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        if (lines.size() != 1) {
            throw new IllegalArgumentException("it holds " + lines.size() + " key lines, and a public key file holds one");
        }
        String[] words = lines.getFirst().split("\\s+");
        if (words.length < 2 || !TYPES.contains(words[0])) {
            throw new IllegalArgumentException("its line does not start with a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-…)"
                    + " followed by the key; is it the private key, or a line with options?");
        }
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(words[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("its key is not base64");
        }
        if (!words[0].equals(blobType(blob))) {
            throw new IllegalArgumentException("its key is not a " + words[0] + " key");
        }
        return new AuthorizedKeyLine(lines.getFirst(), words[0], words[1], null);
    }

    /** The line nvidb writes for {@code user}'s key, whose forced command runs {@code nvidb}. */
    static AuthorizedKeyLine forUser(String user, String type, String key, String nvidb) {
        String command = ShellQuote.quote(nvidb).replace("\\", "\\\\").replace("\"", "\\\"") + " queue users login " + user;
        return new AuthorizedKeyLine("command=\"" + command + "\",restrict " + type + " " + key + " " + MARK + user, type,
                key, user);
    }

    /** {@code SHA256:…}, as {@code ssh-keygen -lf} prints it: unpadded base64 of the blob's SHA-256. */
    String fingerprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Base64.getDecoder().decode(key));
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The type a key blob names in its first field (an SSH string), or null. */
    private static String blobType(byte[] blob) {
        if (blob.length < 4) {
            return null;
        }
        int length = ByteBuffer.wrap(blob).getInt();
        return length > 0 && length <= blob.length - 4 ? new String(blob, 4, length, StandardCharsets.US_ASCII) : null;
    }

    /** The line's words, a double-quoted option value (which may hold spaces) within its word. */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && quoted && i + 1 < text.length()) {
                w.append(c).append(text.charAt(++i));
            } else if (c == '"') {
                quoted = !quoted;
                w.append(c);
            } else if (Character.isWhitespace(c) && !quoted) {
                if (!w.isEmpty()) {
                    words.add(w.toString());
                    w.setLength(0);
                }
            } else {
                w.append(c);
            }
        }
        if (!w.isEmpty()) {
            words.add(w.toString());
        }
        return words;
    }
}
