package nvidb.tui;

import java.util.Map;
import java.util.function.Supplier;
import nvidb.core.api.QueueAccess;
import nvidb.tui.run.TuiRunner;

/** {@code nvidb queue}: the queue on this process's terminal until the person quits. */
public final class Tui {
    /** The shortest refresh interval: a pass a second is already a lot of node traffic. */
    public static final double MIN_REFRESH_SECONDS = 1.0;
    public static final double DEFAULT_REFRESH_SECONDS = 3.0;

    private Tui() {
    }

    /**
     * Shows the queue and takes keys until {@code q} (exit 0) or Ctrl-C (130); the terminal is
     * restored however it ends, an exception included.
     *
     * @param refreshSeconds how often the view is re-read and (auto-tick on) a pass is made
     * @param env            the environment ({@code NO_COLOR}, {@code TERM})
     * @param opener         opens an access of its own for each worker thread; the caller owns and closes them
     * @throws nvidb.core.api.NvidbException (usage) when stdin and stdout are not a terminal
     */
    public static int run(double refreshSeconds, Map<String, String> env, Supplier<QueueAccess> opener) {
        return TuiRunner.run(refreshSeconds, env, opener);
    }
}
