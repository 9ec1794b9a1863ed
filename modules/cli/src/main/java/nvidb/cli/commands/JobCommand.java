package nvidb.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nvidb job …}: one job at a time. */
@Command(name = "job", mixinStandardHelpOptions = true, description = "Submit, inspect and manage jobs.")
public final class JobCommand implements Runnable {
    /** The subcommands, by name; the command line registers only the one it runs (start-up time). */
    public static final java.util.Map<String, java.util.function.Supplier<Object>> SUBCOMMANDS = new Subcommands()
            .add("submit", JobSubmit::new)
            .add("sweep", JobSweep::new)
            .add("ls", JobList::new)
            .add("show", JobShow::new)
            .add("logs", JobLogs::new)
            .add("wait", JobWait::new)
            .add("cancel", JobCancel::new)
            .add("release", JobRelease::new)
            .add("edit", JobEdit::new)
            .add("requeue", JobRequeue::new)
            .add("result", JobResult::new)
            .add("note", JobNote::new)
            .add("priority", JobPriority::new)
            .add("purge", JobPurge::new)
            .map();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "pick a job subcommand (submit, sweep, ls, show, note, priority, edit, release, cancel, requeue, purge, result)");
    }
}
