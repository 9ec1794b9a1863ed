package nvidb.cli.context;

/**
 * Whether a thread other than the caller would keep the JVM alive once {@code main} returns: the
 * condition under which {@code Main} may end a successful command by returning. {@code
 * System.exit} first asks the platform logger whether to log the exit (JDK 21+), and setting that
 * logger up searches every module of the image for logging providers: ~7 ms of every command, for
 * a log line nobody asked for. Returning from {@code main} exits 0 through the same shutdown hooks.
 */
public final class LiveThreads {
    private LiveThreads() {
    }

    /** True when another live non-daemon thread exists (or there are too many threads to tell). */
    public static boolean wouldKeepTheJvmAlive() {
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
