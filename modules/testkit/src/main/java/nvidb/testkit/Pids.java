package nvidb.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Whether a process a test started (and meant to be killed) is gone. */
public final class Pids {
    private Pids() {
    }

    /**
     * Waits up to {@code within} until {@code pid} has ended. A zombie has ended: a killed
     * process whose parent died waits as one until the machine's init reaps it, which some
     * container inits do only every couple of seconds (measured: up to 2 s).
     */
    public static boolean goneWithin(long pid, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        do {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isEmpty() || !handle.get().isAlive() || zombie(pid)) {
                return true;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return false;
    }

    /** The process number a pid file holds, or empty where it is missing or holds no number. */
    public static Optional<Long> inFile(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Kills every process of {@code roots} and their descendants, then waits (up to 5 s each) until
     * they are gone: a job that ends as it is killed still writes its exit files, and must be done
     * before a test deletes its folders.
     */
    public static void killTreesAndAwait(List<ProcessHandle> roots) throws InterruptedException {
        List<ProcessHandle> killed = new ArrayList<>();
        for (ProcessHandle p : roots) {
            p.descendants().forEach(c -> {
                c.destroyForcibly();
                killed.add(c);
            });
            p.destroyForcibly();
            killed.add(p);
        }
        for (ProcessHandle p : killed) {
            goneWithin(p.pid(), Duration.ofSeconds(5));
        }
    }

    /** Whether {@code /proc/PID/stat} says Z (ended, not yet reaped); false where there is no /proc. */
    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name, in parentheses, may hold blanks: the state follows its last ')'.
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'Z';
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
