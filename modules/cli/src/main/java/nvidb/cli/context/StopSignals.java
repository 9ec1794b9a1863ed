package nvidb.cli.context;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT as a request to stop, for the daemon: the first one only calls {@code stop}
 * (the daemon finishes its pass, lets go of everything and exits 0, as a service manager expects
 * of SIGTERM); a second one is handled as before (the JVM shuts down, {@link ShutdownGuard}
 * interrupts the pass and gives back its lease, exit 130 or 143). A shutdown hook could not do
 * the first part: once the JVM shuts down, the exit status is the signal's. {@code sun.misc.Signal}
 * (module jdk.unsupported) is the JDK's one way to handle a signal instead of shutting down.
 */
public final class StopSignals implements AutoCloseable {
    private record Installed(Signal signal, SignalHandler previous) {
    }

    private final List<Installed> installed = new ArrayList<>();

    private StopSignals() {
    }

    /** Handles TERM and INT until {@link #close}; a signal this process ignores (a background job's INT) stays ignored. */
    public static StopSignals install(Runnable stop) {
        StopSignals s = new StopSignals();
        boolean[] asked = new boolean[1];
        for (String name : List.of("TERM", "INT")) {
            Signal signal = new Signal(name);
            SignalHandler[] previous = new SignalHandler[1];
            SignalHandler handler = sig -> {
                synchronized (asked) {
                    if (!asked[0]) {
                        asked[0] = true;
                        stop.run();
                        return;
                    }
                }
                previous[0].handle(sig);
            };
            try {
                previous[0] = Signal.handle(signal, handler);
            } catch (IllegalArgumentException e) {
                continue; // ignored or reserved here: nothing to handle
            }
            if (previous[0] == SignalHandler.SIG_IGN) {
                Signal.handle(signal, SignalHandler.SIG_IGN);
                continue;
            }
            s.installed.add(new Installed(signal, previous[0]));
        }
        return s;
    }

    @Override
    public void close() {
        for (Installed i : installed) {
            Signal.handle(i.signal(), i.previous());
        }
    }
}
