package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import nvidb.core.api.Alert;
import nvidb.core.api.JobQueries;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.view.AlertView;
import nvidb.core.view.QueueDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "alerts", mixinStandardHelpOptions = true, description = {
        "What needs attention. Exits 1 while any alert is unacknowledged, so it is a cheap health check."})
public final class QueueAlerts extends BaseCommand {
    @Option(names = "--all", description = "Include acknowledged alerts.")
    boolean all;

    @Option(names = "--detail", description = "Show what each alert captured (e.g. the job's stderr tail).")
    boolean detail;

    @Option(names = {"-n", "--number"}, paramLabel = "N", description = "The newest N (default 50).")
    int number = 50;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        if (number < 1) {
            throw NvidbException.usage("-n takes a number ≥ 1");
        }
        Queue service = service();
        service.tick(tick.read());
        JobQueries.AlertPage page = service.jobQueries().alerts(all, number);
        if (json()) {
            out().document(new QueueDocuments.Alerts(page.alerts().stream().map(AlertView.Listed::of).toList(), page.open()));
        } else if (page.alerts().isEmpty()) {
            out().line("no open alerts");
        } else {
            out().line(HumanViews.alertTable(page.alerts()));
            if (detail) {
                for (Alert alert : page.alerts()) {
                    if (alert.detail() != null && !alert.detail().isEmpty()) {
                        out().line("");
                        out().line("--- alert " + alert.id() + ": " + alert.title());
                        for (String l : alert.detail().split("\n", -1)) {
                            out().line("    " + l);
                        }
                    }
                }
            }
        }
        return page.open() > 0 ? 1 : 0;
    }
}
