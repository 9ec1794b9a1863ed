package nvidb.cli.commands;

import nvidb.core.api.Ids;
import picocli.CommandLine.Parameters;

/** The sweep id of {@code sweep show 3} and its siblings, validated with a clear sentence. */
public final class SweepIdArgument {
    @Parameters(index = "0", paramLabel = "ID", description = "The sweep's id (job sweep prints it; sweep ls lists them).")
    String id;

    public long value() {
        return Ids.parse(id);
    }
}
