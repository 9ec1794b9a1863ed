package nvidb.cli.commands;

import nvidb.core.api.TickMode;
import picocli.CommandLine.Option;

/**
 * {@code --tick} / {@code --no-tick}, the same on every read command: {@code --tick} refreshes from
 * the nodes first, {@code --no-tick} reads the database only. Without either, a read that refreshes
 * does so rate-limited ({@link #read()}); one that only reads the log or stored results ({@code queue
 * events}, {@code queue history}, {@code job result}, {@code sweep export}) contacts no node
 * ({@link #onRequest()}).
 */
public final class TickOptions {
    @Option(names = "--tick", description = "Refresh now, even if the last refresh was moments ago.")
    boolean force;

    @Option(names = "--no-tick", description = "Read the database only; contact no node.")
    boolean none;

    /** The mode for a read: refresh unless recently done. */
    public TickMode read() {
        return none ? TickMode.NONE : force ? TickMode.FORCE : TickMode.AUTO;
    }

    /** The mode for a read that contacts no node unless {@code --tick} asks it to. */
    public TickMode onRequest() {
        return force && !none ? TickMode.FORCE : TickMode.NONE;
    }
}
