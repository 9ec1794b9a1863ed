package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobState;
import nvidb.core.api.ShellQuote;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.TickMode;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
import nvidb.core.view.TickView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "submit", mixinStandardHelpOptions = true, description = {
        "Queue a job. Put the command last, after --, or pass it as one quoted string."})
public final class JobSubmit extends BaseCommand {
    @Mixin
    SubmitOptions job;

    @Option(names = "--wait", description = "Block until the job ends (exit 0 completed, 1 ended badly, 2 --wait-timeout ran out).")
    boolean waitForIt;

    @Option(names = "--wait-timeout", paramLabel = "SECONDS", description = "Stop waiting after this long (exit 2).")
    Integer waitTimeout;

    @Mixin
    NoTickOption tick;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command (after --), or one quoted string.")
    List<String> command = new ArrayList<>();

    @Override
    protected List<Class<?>> jsonDocuments() {
        return List.of(JobDocuments.Submitted.class, TickView.Ran.class);
    }

    @Override
    protected int execute() {
        List<String> words = job.commandWords(command);
        SubmitRequest request = job.request(service(), words.size() == 1 ? words.getFirst() : ShellQuote.join(words));
        JobCommands.Submitted s = service().jobCommands().submit(request, tick.after());
        Job job = s.job();
        Waiting.Outcome waited = null;
        if (waitForIt && !job.state().terminal()) {
            waited = Waiting.until(service(), java.util.List.of(job.id()), waitTimeout, out(), TickMode.AUTO);
            job = waited.jobs().getFirst();
        }
        if (json()) {
            out().document(new JobDocuments.Submitted(true, s.duplicate(), JobView.of(job, now()), TickView.of(s.tick()),
                    waitForIt ? (Boolean) (waited != null && waited.interrupted()) : null));
        } else {
            out().line((s.duplicate() ? "already submitted as job " : "submitted job ") + job.id() + " ("
                    + job.displayState() + ")");
            out().line(placementLine(job));
            if (waited != null && waited.interrupted()) {
                out().note(waited.interruptedNote());
            }
        }
        if (waitForIt) {
            return waited != null ? waited.exitCode() : job.state() == JobState.COMPLETED ? 0 : 1;
        }
        return job.state() == JobState.FAILED ? 1 : 0;
    }

    private static String placementLine(Job job) {
        if (job.state() == JobState.RUNNING) {
            return "  running on " + job.node() + " GPU " + (job.gpuIds().isEmpty() ? "-" : job.gpuIds());
        }
        if (job.state() == JobState.COMPLETED) {
            return "  completed on " + job.node() + " (exit 0); its output: nvidb job logs " + job.id();
        }
        if (job.state().terminal()) {
            return "  " + job.state().label() + (job.lastError() == null ? "" : ": " + job.lastError());
        }
        if (job.held()) {
            return "  held: " + job.heldReason();
        }
        if (job.lane() != null) {
            return "  queued in lane " + job.lane();
        }
        if (!job.dependsOn().isEmpty() || !job.dependsAny().isEmpty()) {
            return "  waiting for its dependencies";
        }
        return "  waiting for capacity; it starts on the next tick that fits it";
    }
}
