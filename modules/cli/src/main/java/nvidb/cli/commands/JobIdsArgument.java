package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.Ids;
import picocli.CommandLine.Parameters;

/** One or more job ids; each argument may be a comma list ({@code 1,2 3}). */
public final class JobIdsArgument {
    @Parameters(arity = "1..*", paramLabel = "IDS", description = "Job ids (comma lists allowed).")
    List<String> ids = new ArrayList<>();

    public List<Long> values() {
        List<Long> parsed = Ids.parseLists(ids);
        if (parsed.isEmpty()) {
            throw nvidb.core.api.NvidbException.usage("name at least one job id");
        }
        return parsed;
    }
}
