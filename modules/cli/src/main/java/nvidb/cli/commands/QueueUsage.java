package nvidb.cli.commands;

import nvidb.cli.output.UsageViews;
import nvidb.core.api.NvidbException;
import nvidb.core.view.UsageDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nvidb queue usage}: what the jobs used, by user, sweep, node or name. */
@Command(name = "usage", mixinStandardHelpOptions = true, description = {
    "What the jobs that ran in a window used, a row per user (or sweep, node, name) and a total.",
    "Each row: jobs, GPU-hours, VRAM reserved and at its measured peak (GiB-hours), idle GPU-hours (GPUs at or",
    "under queue.idle_util) and energy (kWh, where nvidia-smi reports power.draw). A job still running counts up",
    "to now; a run the window cuts counts its part inside it. Unmeasured figures are null (-). See docs/usage.md."})
public final class QueueUsage extends BaseCommand {
    @Option(names = "--since", paramLabel = "WHEN", defaultValue = "7d",
            description = "7d, 12h, 30m, an ISO date or time (2026-12-01, 2026-12-01T09:00:00Z), or all (default 7d).")
    String since;

    @Option(names = "--by", paramLabel = "KEY", defaultValue = "user", description = "user, sweep, node or name (default user).")
    String by;

    @Option(names = "--csv", description = "Comma-separated values (RFC 4180): a header, a row a group, the total last.")
    boolean csv;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        if (csv && json()) {
            throw NvidbException.usage("pick one format: --json or --csv");
        }
        nvidb.core.app.UsageReport.check(since, by); // a bad --since or --by is refused before any pass
        ctx().app().tick(ctx().caller(), tick.onRequest());
        UsageDocuments.Report report = ctx().app().usage(ctx().caller(), since, by);
        if (json()) {
            out().document(report);
        } else if (csv) {
            out().raw(UsageViews.csv(report));
        } else {
            out().line(UsageViews.table(report));
        }
        return 0;
    }
}
