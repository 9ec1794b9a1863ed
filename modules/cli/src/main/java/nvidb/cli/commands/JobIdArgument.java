package nvidb.cli.commands;

import nvidb.core.api.Ids;
import picocli.CommandLine.Parameters;

/** The single job id of commands such as {@code job show 12}, validated with a clear sentence. */
public final class JobIdArgument {
    @Parameters(index = "0", paramLabel = "ID", description = "The job's id.")
    String id;

    public long value() {
        return Ids.parse(id);
    }
}
