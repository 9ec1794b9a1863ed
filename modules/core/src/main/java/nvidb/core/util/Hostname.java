package nvidb.core.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's name, read without a DNS lookup (which can stall a command for seconds). */
public final class Hostname {
    private static String cached;

    private Hostname() {
    }

    public static synchronized String get() {
        if (cached == null) {
            String h = System.getenv("HOSTNAME");
            if (h == null || h.isBlank()) {
                try {
                    h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
                } catch (IOException | RuntimeException e) {
                    h = null;
                }
            }
            if (h == null || h.isBlank()) {
                try {
                    h = java.net.InetAddress.getLocalHost().getHostName();
                } catch (IOException e) {
                    h = "localhost";
                }
            }
            cached = h;
        }
        return cached;
    }
}
