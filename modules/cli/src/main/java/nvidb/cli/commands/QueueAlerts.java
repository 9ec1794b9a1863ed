package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import nvidb.core.api.Alert;
import nvidb.core.api.JobQueries;
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
        ctx().app().tick(ctx().caller(), tick.read());
        JobQueries.AlertPage page = ctx().app().alertPage(ctx().caller(), all, number);
        if (json()) {
            out().document(nvidb.core.app.Application.alertsDocument(page));
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
