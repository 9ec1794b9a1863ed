package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import nvidb.core.app.Application;
import nvidb.core.api.JobQueries;
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
    protected int execute() {
        long jobId = id.value();
        Application app = ctx().app();
        app.tick(ctx().caller(), tick.read());
        if (json()) {
            out().document(app.job(ctx().caller(), jobId, logs));
        } else {
            JobQueries.JobDetail detail = app.jobDetail(ctx().caller(), jobId);
            out().line(HumanViews.jobDetail(detail.job(), detail.events(), now()));
            if (detail.batch() != null) {
                out().line("batch       " + detail.batch().node() + " job " + detail.batch().id() + " "
                        + detail.batch().state() + (detail.batch().reason() == null ? "" : " (" + detail.batch().reason() + ")"));
            }
            if (logs != null) {
                String tail = app.logTail(ctx().caller(), jobId, logs);
                if (!tail.isEmpty()) {
                    out().line("");
                    out().line("LOG (stdout tail)");
                    tail.lines().forEach(l -> out().line("  " + l));
                }
            }
        }
        return 0;
    }
}
