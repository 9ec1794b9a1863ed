package nvidb.cli.context;

/**
 * How {@code main} ends the process with a command's exit code. Code 0 with no other
 * non-daemon thread left: {@code main} just returns and the JVM exits 0 through the same shutdown
 * hooks. {@code System.exit} first asks the platform logger whether to log the exit (JDK 21+), and
 * setting that logger up searches every module of the image for logging providers: ~7 ms of every
 * command for a log line nobody asked for. Any other code, or a thread that would keep the JVM
 * alive, still goes through {@code System.exit}.
 */
public final class Exit {
    private Exit() {
    }

    /** Ends the process with {@code code}; returns only where returning from {@code main} ends it with 0. */
    public static void end(int code) {
        if (code != 0 || otherThreadsKeepTheJvmAlive()) {
            System.exit(code);
        }
    }

    private static boolean otherThreadsKeepTheJvmAlive() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int count = root.enumerate(threads, true);
        for (int i = 0; i < count; i++) {
            Thread t = threads[i];
            if (t != Thread.currentThread() && t.isAlive() && !t.isDaemon()) {
                return true;
            }
        }
        return count == threads.length; // more threads than counted: be safe
    }
}
