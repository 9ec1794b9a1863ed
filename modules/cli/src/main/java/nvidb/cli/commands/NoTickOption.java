package nvidb.cli.commands;

import nvidb.core.api.TickMode;
import picocli.CommandLine.Option;

/** {@code --no-tick} of commands that run a scheduler pass after they change something. */
public final class NoTickOption {
    @Option(names = "--no-tick", description = "Do not run a scheduler pass afterwards.")
    boolean none;

    public TickMode after() {
        return none ? TickMode.NONE : TickMode.FORCE;
    }
}
