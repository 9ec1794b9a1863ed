package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import nvidb.cli.output.HumanViews;
import nvidb.cli.output.Views;
import nvidb.core.api.Event;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "show", mixinStandardHelpOptions = true, description = "One job in full, with its events.")
public final class JobShow extends BaseCommand {
    @Mixin
    JobIdArgument id;

    @picocli.CommandLine.Option(names = "--logs", arity = "0..1", fallbackValue = "40", paramLabel = "LINES",
            description = "Include the last LINES of stdout (default 40).")
    Integer logs;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        long jobId = id.value();
        Queue service = service();
        service.tick(tick.read());
        JobQueries.JobDetail detail = service.jobQueries().show(jobId);
        if (json()) {
            ObjectNode o = Views.job(detail.job(), now());
            if (detail.batch() != null) {
                // Only for a job a batch node (Slurm) holds or held: why it waits there, and its id there.
                o.put("reason", detail.job().state().label().equals("pending") ? detail.batch().reason() : null);
                ObjectNode b = o.putObject("batch");
                b.put("node", detail.batch().node());
                b.put("id", detail.batch().id());
                b.put("state", detail.batch().state());
                b.put("reason", detail.batch().reason());
            }
            ArrayNode events = o.putArray("events");
            for (Event e : detail.events()) {
                events.add(Views.event(e));
            }
            if (logs != null) {
                o.put("log_tail", logTail(service, jobId));
            }
            out().document(o);
        } else {
            out().line(HumanViews.jobDetail(detail.job(), detail.events(), now()));
            if (detail.batch() != null) {
                out().line("batch       " + detail.batch().node() + " job " + detail.batch().id() + " "
                        + detail.batch().state() + (detail.batch().reason() == null ? "" : " (" + detail.batch().reason() + ")"));
            }
            if (logs != null) {
                String tail = logTail(service, jobId);
                if (!tail.isEmpty()) {
                    out().line("");
                    out().line("LOG (stdout tail)");
                    tail.lines().forEach(l -> out().line("  " + l));
                }
            }
        }
        return 0;
    }

    private String logTail(Queue service, long jobId) {
        try {
            return service.jobQueries().logs(jobId, false, logs);
        } catch (nvidb.core.api.NvidbException e) {
            return "(log unavailable: " + e.getMessage() + ")";
        }
    }
}
