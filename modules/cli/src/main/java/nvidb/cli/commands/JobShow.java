package nvidb.cli.commands;

import java.util.List;
import nvidb.cli.output.HumanViews;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Queue;
import nvidb.core.view.BatchView;
import nvidb.core.view.EventView;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
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

    /** Reads the job's result in its JSON document. */
    @Override
    protected boolean readsStoredJson() {
        return json();
    }

    @Override
    protected List<Class<?>> jsonDocuments() {
        return List.of(JobDocuments.Shown.class);
    }

    @Override
    protected int execute() {
        long jobId = id.value();
        Queue service = service();
        service.tick(tick.read());
        JobQueries.JobDetail detail = service.jobQueries().show(jobId);
        if (json()) {
            out().document(new JobDocuments.Shown(JobView.of(detail.job(), now()), BatchView.of(detail),
                    detail.events().stream().map(EventView::of).toList(), logs == null ? null : logTail(service, jobId)));
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
