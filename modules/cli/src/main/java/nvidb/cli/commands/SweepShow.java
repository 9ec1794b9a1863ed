package nvidb.cli.commands;

import nvidb.cli.output.SweepViews;
import nvidb.core.api.NvidbException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "show", mixinStandardHelpOptions = true, description = {
        "One row per run of the sweep, the best first with --metric.",
        "Each row: index, job, parameters, state, exit code, duration, status line, and every numeric field of its",
        "result.json (nested ones as a.b). With --metric the best run comes first, marked *; --sort orders them all."})
public final class SweepShow extends BaseCommand {
    @Mixin
    SweepIdArgument id;

    @Mixin
    MetricOptions metric;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most N rows (default all).")
    int limit;

    @Mixin
    TickOptions tick;

    /** Reads the sweep's spec and each run's result. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        if (limit < 0) {
            throw NvidbException.usage("--limit cannot be negative (0 shows every run)");
        }
        ctx().app().tick(ctx().caller(), tick.read());
        if (json()) {
            out().document(metric.show(ctx().app().sweeps(), ctx().caller(), id.value(), limit));
        } else {
            out().line(SweepViews.detailTable(metric.detail(ctx().app().sweeps(), ctx().caller(), id.value()), limit, now()));
        }
        return 0;
    }
}
