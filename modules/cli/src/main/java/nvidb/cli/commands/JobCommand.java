package nvidb.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nvidb job …}: one job at a time. */
@Command(name = "job", mixinStandardHelpOptions = true, description = "Submit, inspect and manage jobs.",
        subcommands = {JobSubmit.class, JobList.class, JobShow.class, JobNote.class, JobPriority.class, JobEdit.class,
                JobRelease.class, JobCancel.class, JobRequeue.class, JobPurge.class, JobResult.class, JobLogs.class,
                JobWait.class})
public final class JobCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "pick a job subcommand (submit, ls, show, note, priority, edit, release, cancel, requeue, purge, result)");
    }
}
