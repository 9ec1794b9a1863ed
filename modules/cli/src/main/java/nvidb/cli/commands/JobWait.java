package nvidb.cli.commands;

import nvidb.core.app.Verdicts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import nvidb.cli.output.HumanViews;
import nvidb.core.api.Job;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
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
    protected List<Class<?>> jsonDocuments() {
        return List.of(JobDocuments.Waited.class);
    }

    @Override
    protected int execute() {
        List<Long> wanted = ids.values();
        if (timeout != null && timeout < 0) {
            throw NvidbException.usage("--timeout cannot be negative");
        }
        Queue service = service();
        List<Job> known = service.jobQueries().jobsById(wanted);
        List<Long> waitable = wanted.stream().distinct().filter(id -> known.stream().anyMatch(j -> j.id() == id))
                .toList();
        // Every id that exists is waited on; an unknown one is reported, as for every several-ids command.
        Waiting.Outcome o = waitable.isEmpty() ? new Waiting.Outcome(List.of(), false, false)
                : Waiting.until(service, waitable, timeout, out(), tick.read());
        List<Verdicts.Item> items = wanted.stream().distinct().map(id -> o.jobs().stream().filter(j -> j.id() == id)
                .findFirst().map(j -> new Verdicts.Item(id, true, j.state().label()))
                .orElseGet(() -> new Verdicts.Item(id, false, null))).toList();
        Verdicts.Verdict verdict = Verdicts.verdict(items, "wait for");
        if (json()) {
            List<JobDocuments.WaitedJob> jobs = new ArrayList<>();
            for (Job j : o.jobs()) {
                JsonNode tail = logs == null ? null : j.runDir() == null ? NullNode.getInstance()
                        : TextNode.valueOf(service.jobQueries().logs(j.id(), false, logs));
                jobs.add(new JobDocuments.WaitedJob(JobView.of(j, now()), tail));
            }
            out().document(new JobDocuments.Waited(verdict.view(), items.stream().map(i -> Verdicts.view(i, "wait for"))
                    .toList(), jobs, o.allDone(), o.allSucceeded(), o.timedOut(), o.interrupted()));
        } else {
            if (!o.jobs().isEmpty()) {
                out().line(HumanViews.jobTable(o.jobs(), now(), ""));
            }
            if (logs != null) {
                for (Job j : o.jobs()) {
                    String tail = j.runDir() == null ? "" : service.jobQueries().logs(j.id(), false, logs);
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
                out().note(o.interruptedNote());
            }
        }
        int missing = report(verdict);
        return o.interrupted() || missing == 0 ? o.exitCode() : missing;
    }
}
