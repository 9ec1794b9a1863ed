package nvidb.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The bearer token of the web server: 32 random bytes in {@code $NVIDB_HOME/web.token}, readable
 * by its owner alone, made on the first start and kept (a page left open keeps working across
 * restarts). Compared in constant time.
 */
final class Token {
    static final String FILE = "web.token";

    private final byte[] value;

    private Token(String value) {
        this.value = value.getBytes(StandardCharsets.US_ASCII);
    }

    static Token load(Path home) throws IOException {
        Path file = home.resolve(FILE);
        Files.createDirectories(home);
        if (!Files.exists(file)) {
            byte[] raw = new byte[32];
            new SecureRandom().nextBytes(raw);
            String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
            try {
                // Made with its permissions, so that it is never readable by others, not even for a moment.
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, fresh + "\n");
            } catch (FileAlreadyExistsException e) {
                // another start made it first: use that one
            }
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        String text = Files.readString(file).strip();
        if (text.length() < 20) {
            throw new IOException(file + " holds no usable token; delete it and a new one is made");
        }
        return new Token(text);
    }

    String text() {
        return new String(value, StandardCharsets.US_ASCII);
    }

    /** Whether {@code offered} is the token; null or anything else is not. */
    boolean matches(String offered) {
        return offered != null && MessageDigest.isEqual(value, offered.getBytes(StandardCharsets.UTF_8));
    }
}
