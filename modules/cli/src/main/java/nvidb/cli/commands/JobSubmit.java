package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.JobState;
import nvidb.core.api.ShellQuote;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.TickMode;
import nvidb.core.app.JobOperations;
import nvidb.core.app.SubmitInput;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
import nvidb.core.view.VramSources;
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

    @Option(names = "--dry-run", description = "Make every check and say what it would reserve (with --vram auto: the learned figure and its source); queue nothing.")
    boolean dryRun;

    @Mixin
    NoTickOption tick;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command (after --), or one quoted string.")
    List<String> command = new ArrayList<>();

    @Override
    protected int execute() {
        SubmitInput input = job.input(command);
        List<String> words = input.words();
        JobOperations ops = ctx().app().jobOps();
        SubmitRequest request = input.request(ops, ctx().caller(), words.size() == 1 ? words.getFirst() : ShellQuote.join(words));
        if (dryRun) {
            return preview(ops.preview(ctx().caller(), request));
        }
        JobDocuments.Submitted s = ops.submit(ctx().caller(), request, tick.after());
        JobOperations.Waited waited = null;
        if (waitForIt) {
            if (!state(s.job()).terminal()) {
                waited = ops.await(ctx().caller(), List.of(s.job().id()), waitTimeout, TickMode.AUTO,
                        Waiting.statusLine(out()));
                Waiting.ended(waited, out());
            }
            s = ops.afterWait(s, waited);
        }
        JobView job = s.job();
        if (json()) {
            out().document(s);
        } else {
            out().line((s.duplicate() ? "already submitted as job " : "submitted job ") + job.id() + " ("
                    + (job.held() ? "held" : job.state()) + ")");
            out().line(placementLine(job));
            if (waited != null && waited.interrupted()) {
                out().note(Waiting.interruptedNote(waited));
            }
        }
        if (waitForIt) {
            return waited != null ? Waiting.exitCode(waited) : state(job) == JobState.COMPLETED ? 0 : 1;
        }
        return state(job) == JobState.FAILED ? 1 : 0;
    }

    private int preview(JobDocuments.Previewed p) {
        if (json()) {
            out().document(p);
        } else {
            out().line("dry run: would reserve " + p.vram() + " per GPU (" + VramSources.describe(p.vramSource()) + ")");
            out().line("  nothing was submitted");
        }
        return 0;
    }

    private static JobState state(JobView job) {
        return JobState.fromLabel(job.state());
    }

    private static String placementLine(JobView job) {
        JobState state = state(job);
        if (state == JobState.RUNNING) {
            return "  running on " + job.node() + " GPU " + (job.gpuIds().isEmpty() ? "-" : job.gpuIds());
        }
        if (state == JobState.COMPLETED) {
            return "  completed on " + job.node() + " (exit 0); its output: nvidb job logs " + job.id();
        }
        if (state.terminal()) {
            return "  " + job.state() + (job.lastError() == null ? "" : ": " + job.lastError());
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
