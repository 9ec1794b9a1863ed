package nvidb.cli.commands;

import nvidb.core.api.TickMode;
import picocli.CommandLine.Option;

/** {@code --tick} / {@code --no-tick} of commands that refresh from the nodes first. */
public final class TickOptions {
    @Option(names = "--tick", description = "Refresh now, even if the last refresh was moments ago.")
    boolean force;

    @Option(names = "--no-tick", description = "Read the database only; contact no node.")
    boolean none;

    /** The mode for a read: refresh unless recently done. */
    public TickMode read() {
        return none ? TickMode.NONE : force ? TickMode.FORCE : TickMode.AUTO;
    }
}
