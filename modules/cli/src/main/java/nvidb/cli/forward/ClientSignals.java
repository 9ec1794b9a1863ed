package nvidb.cli.forward;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM taken over while a command runs on the queue host: instead of ending this
 * JVM (its default), each is handed to {@code relay}, which passes it to the host command and
 * lets the host's answer decide the exit code. Given back afterwards. A signal this process was
 * started with ignored (a background job's SIGINT) stays ignored, as it would for a local command.
 */
final class ClientSignals implements AutoCloseable {
    private final List<Signal> taken = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private ClientSignals() {
    }

    static ClientSignals relay(Consumer<String> relay) {
        ClientSignals signals = new ClientSignals();
        for (String name : List.of("INT", "TERM")) {
            Signal signal = new Signal(name);
            try {
                signals.previous.add(Signal.handle(signal, s -> relay.accept(s.getName())));
                signals.taken.add(signal);
            } catch (IllegalArgumentException ignoredOrReserved) {
                // started with it ignored (nohup, a background job) or reserved by the JVM: leave it
            }
        }
        return signals;
    }

    /** A process that owns no signals (a test's JVM) relays nothing. */
    static ClientSignals none() {
        return new ClientSignals();
    }

    @Override
    public void close() {
        for (int i = 0; i < taken.size(); i++) {
            Signal.handle(taken.get(i), previous.get(i));
        }
    }
}
