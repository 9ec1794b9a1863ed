package nvidb.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole command line of a running process. {@link ProcessHandle.Info#commandLine()} gives up
 * on a command line longer than about 4 KiB (a test JVM's class path is longer than that) and
 * returns it cut or empty, so tests that find their processes by an argument after the class
 * path read {@code /proc/PID/cmdline} instead.
 */
public final class ProcessLines {
    private ProcessLines() {
    }

    /** The command line, arguments separated by spaces; empty once the process is gone. */
    public static String of(ProcessHandle process) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException | RuntimeException e) {
            return process.info().commandLine().orElse("");
        }
    }
}
