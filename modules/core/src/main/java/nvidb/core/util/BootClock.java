package nvidb.core.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A reading of this host's boot clock: milliseconds since boot ({@code /proc/uptime}, Linux's
 * CLOCK_BOOTTIME, which counts a suspend too) and the boot it belongs to. Unlike the wall clock it
 * never jumps, and every process of the host reads the same one, so a run time measured on it
 * holds across the commands and the daemon that share a queue — until the host reboots, which a
 * new boot id tells.
 */
public record BootClock(String bootId, long uptimeMs) {
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final Path UPTIME = Path.of("/proc/uptime");

    /** The clock now; empty where the host has none (not Linux), and callers count wall time. */
    public static Optional<BootClock> now() {
        try {
            String id = Files.readString(BOOT_ID).strip();
            String up = Files.readString(UPTIME).strip();
            int blank = up.indexOf(' ');
            double seconds = Double.parseDouble(blank < 0 ? up : up.substring(0, blank));
            return id.isEmpty() ? Optional.empty() : Optional.of(new BootClock(id, Math.round(seconds * 1000)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The reading the clock had at wall instant {@code at}, which was {@code now - at} before the
     * wall instant {@code now} this reading was taken at (never later than this reading: a start
     * the wall clock puts in the future happened now at the latest).
     */
    public BootClock at(Instant at, Instant now) {
        long before = Math.max(0, Duration.between(at, now).toMillis());
        return new BootClock(bootId, Math.max(0, uptimeMs - before));
    }

    /** Milliseconds from {@code earlier} to this reading; empty when the host rebooted in between. */
    public OptionalLong since(BootClock earlier) {
        return bootId.equals(earlier.bootId) ? OptionalLong.of(Math.max(0, uptimeMs - earlier.uptimeMs))
                : OptionalLong.empty();
    }
}
