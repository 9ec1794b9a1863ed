package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.cli.output.HumanViews;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.Job;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "wait", mixinStandardHelpOptions = true, description = {
        "Block until the jobs end.",
        "Exits 0 when all completed, 1 when one ended badly, 2 when --timeout ran out with work still going",
        "(not a failure: wait again)."})
public final class JobWait extends BaseCommand {
    @Mixin
    JobIdsArgument ids;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Give up waiting after this long (exit 2).")
    Integer timeout;

    @Option(names = "--logs", arity = "0..1", fallbackValue = "40", paramLabel = "LINES",
            description = "Include the last LINES of each job's stdout (default 40).")
    Integer logs;

    @Override
    protected int execute() {
        List<Long> wanted = ids.values();
        if (timeout != null && timeout < 0) {
            throw NvidbException.usage("--timeout cannot be negative");
        }
        Queue service = service();
        List<Job> known = service.jobQueries().jobsById(wanted);
        List<Long> unknown = wanted.stream().filter(id -> known.stream().noneMatch(j -> j.id() == id)).distinct().toList();
        if (!unknown.isEmpty()) {
            throw NvidbException.notFound("unknown job ids: " + unknown);
        }
        Waiting.Outcome o = Waiting.until(service, wanted, timeout, out());
        if (json()) {
            ObjectNode doc = Output.object();
            ArrayNode jobs = doc.putArray("jobs");
            for (Job j : o.jobs()) {
                ObjectNode v = Views.job(j, now());
                if (logs != null) {
                    v.put("log_tail", j.runDir() == null ? null : service.jobQueries().logs(j.id(), false, logs));
                }
                jobs.add(v);
            }
            doc.put("all_done", o.allDone());
            doc.put("all_succeeded", o.allSucceeded());
            doc.put("timed_out", o.timedOut());
            doc.put("interrupted", o.interrupted());
            out().document(doc);
        } else {
            out().line(HumanViews.jobTable(o.jobs(), now(), ""));
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
        return o.exitCode();
    }
}
