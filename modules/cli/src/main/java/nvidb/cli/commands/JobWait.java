package nvidb.cli.commands;

import java.util.List;
import nvidb.cli.output.HumanViews;
import nvidb.core.api.Job;
import nvidb.core.api.NvidbException;
import nvidb.core.app.JobOperations;
import nvidb.core.app.Verdicts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "wait", mixinStandardHelpOptions = true, description = {
        "Block until the jobs end.",
        "Exits 0 when all completed, 1 when one ended badly, 2 when --timeout ran out with work still going",
        "(not a failure: wait again). An unknown id does not stop the wait for the others: it is reported in",
        "results[] and the exit code is 3."})
public final class JobWait extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Give up waiting after this long (exit 2).")
    Integer timeout;

    @Option(names = "--logs", arity = "0..1", fallbackValue = "40", paramLabel = "LINES",
            description = "Include the last LINES of each job's stdout (default 40).")
    Integer logs;

    @Mixin
    TickOptions tick;

    /** Reads the job's result in its JSON document. */
    @Override
    protected boolean readsStoredJson() {
        return json();
    }

    @Override
    protected int execute() {
        List<Long> wanted = ids.values();
        if (timeout != null && timeout < 0) {
            throw NvidbException.usage("--timeout cannot be negative");
        }
        JobOperations ops = ctx().app().jobOps();
        // Every id that exists is waited on; an unknown one is reported, as for every several-ids command.
        JobOperations.Waited o = ops.waitFor(ctx().caller(), wanted, timeout, tick.read(), Waiting.statusLine(out()));
        Waiting.ended(o, out());
        Verdicts.Verdict verdict = o.verdict();
        if (json()) {
            out().document(ops.waited(ctx().caller(), o, logs));
        } else {
            if (!o.jobs().isEmpty()) {
                out().line(HumanViews.jobTable(o.jobs(), now(), ""));
            }
            if (logs != null) {
                for (Job j : o.jobs()) {
                    String tail = j.runDir() == null ? "" : ctx().app().logs(ctx().caller(), j.id(), false, logs);
                    if (!tail.isEmpty()) {
                        out().line("");
                        out().line("--- job " + j.id() + " stdout");
                        out().raw(tail.endsWith("\n") ? tail : tail + "\n");
                    }
                }
            }
            if (o.timedOut()) {
                out().note("wait timed out; the job(s) above are still going");
            }
            if (o.interrupted()) {
                out().note(Waiting.interruptedNote(o));
            }
        }
        int missing = report(verdict);
        return o.interrupted() || missing == 0 ? Waiting.exitCode(o) : missing;
    }
}
