package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.cli.output.Output;
import nvidb.core.api.JobState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "purge", mixinStandardHelpOptions = true, description = {
        "Delete finished job records (events and alerts are kept).",
        "Jobs that a pending or running job still depends on are kept."})
public final class JobPurge extends BaseCommand {
    @Option(names = "--state", paramLabel = "STATE", description = "Only this finished state (repeatable; default all five).")
    List<String> states = new ArrayList<>();

    @Override
    protected int execute() {
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        states.forEach(s -> wanted.add(JobState.fromLabel(s)));
        int removed = service().jobCommands().purge(wanted);
        if (json()) {
            ObjectNode o = Output.object();
            o.put("ok", true);
            o.put("removed", removed);
            out().document(o);
        } else {
            out().line("removed " + removed + " finished job record(s)");
        }
        return 0;
    }
}
