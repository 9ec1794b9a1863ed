package nvidb.core.util;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random hex that tells apart lease owners of one process ({@code host:pid:nonce}). Uniqueness is
 * all it needs, not secrecy, so it comes from {@link ThreadLocalRandom}: {@code UUID.randomUUID}
 * would set up {@code SecureRandom} (the security providers) first, about 6 ms of every command
 * that writes.
 */
public final class Nonce {
    private Nonce() {
    }

    /** {@code chars} lower-case hex digits (1 to 32). */
    public static String hex(int chars) {
        if (chars < 1 || chars > 32) {
            throw new IllegalArgumentException("1 to 32 hex digits, not " + chars);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        HexFormat hex = HexFormat.of();
        return (hex.toHexDigits(random.nextLong()) + hex.toHexDigits(random.nextLong())).substring(0, chars);
    }
}
