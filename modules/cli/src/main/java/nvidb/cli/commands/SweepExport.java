package nvidb.cli.commands;

import nvidb.cli.output.SweepExports;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sweeps;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "export", mixinStandardHelpOptions = true, description = {
        "Every run of a sweep as CSV or JSON Lines, for notebooks and spreadsheets.",
        "CSV: a header, then a row a run; JSON Lines: an object a run. The columns: index, job_id, name, the",
        "parameters, state, exit_code, elapsed_s, progress, and the metrics (every number of result.json)."})
public final class SweepExport extends BaseCommand {
    @Mixin
    SweepIdArgument id;

    @Option(names = "--csv", description = "Comma-separated values (RFC 4180).")
    boolean csv;

    @Option(names = "--jsonl", description = "One JSON object a line.")
    boolean jsonl;

    @Mixin
    MetricOptions metric;

    @Mixin
    TickOptions tick;

    /** Reads each run's result. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        if (csv == jsonl) {
            throw NvidbException.usage("pick one format: --csv or --jsonl");
        }
        ctx().app().tick(ctx().caller(), tick.onRequest());
        Sweeps.Detail d = metric.detail(ctx().app().sweeps(), ctx().caller(), id.value());
        out().raw(csv ? SweepExports.csv(d, now()) : SweepExports.jsonLines(d, now()));
        return 0;
    }
}
