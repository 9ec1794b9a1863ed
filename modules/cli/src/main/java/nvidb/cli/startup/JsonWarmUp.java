package nvidb.cli.startup;

import java.util.List;
import nvidb.core.api.Json;

/**
 * Sets up JSON on a side thread, while the command opens its queue: the reading, for a command
 * that reads JSON the store keeps (a result, event data, a sweep's spec), and the writing of the
 * records its {@code --json} answer is made of. The command would otherwise do either on its own
 * thread, when it reads the first stored value or writes its answer.
 *
 * <p>Most of that set-up is one class of the JDK: in JDK 25, {@code java.math.BigDecimal}'s static
 * initialiser computes a table of powers of five up to 5^65536 (a 152,000-bit number), ~25 ms of
 * a start-up that compiles with C1 only (the launcher's flags; 55 ms interpreted), and Jackson's
 * parser base class initialises {@code BigDecimal} for its bounds of int and long. The rest is
 * the mapper and its tree readers. The command's thread, when it gets there first, waits for the
 * part in progress (the JVM's class initialisation lock) and does the rest itself; nothing is done
 * twice. Measured (docs/performance.md): {@code sweep ls}, {@code job show --json} and
 * {@code queue events --json} 20-50 ms less wall time for about the same CPU time. Listings that
 * may hold no stored JSON at all ({@code job ls --json} and {@code queue status --json} over pending
 * jobs) do not ask for it: there the side thread's work and its compilations only cost (+10 ms wall,
 * +45 ms CPU for {@code job ls --json} over 10,000 jobs without results).
 *
 * <p>The writing: Jackson builds a record's serialiser when it writes the first one, looking at
 * the record's components and annotations (the JDK spins a proxy class per annotation type it
 * reads, which no AOT cache holds). Built here instead, into the mapper's cache, while the command
 * opens SQLite and does its work; the command finds it there. Measured in docs/performance.md.
 */
public final class JsonWarmUp {
    private JsonWarmUp() {
    }

    /**
     * Starts the set-up for a command of class {@code command}: of reading when it {@code reads}
     * stored JSON, and with {@code --json} ({@code json}) of writing the view records its answer
     * is made of, which the build derived from the command's bytecode (its model's
     * {@link CommandModel#documents}). The thread is a daemon, so it never holds the JVM at exit.
     */
    public static void start(Class<?> command, boolean reads, boolean json) {
        List<String> documents = json ? CommandLines.fromModel().documents(command) : List.of();
        if (!reads && documents.isEmpty()) {
            return;
        }
        Thread thread = new Thread(() -> {
            if (reads) {
                readOnce();
            }
            for (String document : documents) {
                prepare(document, command.getClassLoader());
            }
        }, "nvidb-json-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private static void readOnce() {
        try {
            Json.readTree("{\"warm_up\": [0.5, 1]}");
        } catch (Exception | LinkageError e) {
            // Nothing is lost: the command's own first read sets up (and reports) whatever failed here.
        }
    }

    private static void prepare(String document, ClassLoader loader) {
        try {
            Json.prepareWriting(Class.forName(document, false, loader));
        } catch (Exception | LinkageError e) {
            // As above: the command's own write builds (and reports) what failed here.
        }
    }
}
