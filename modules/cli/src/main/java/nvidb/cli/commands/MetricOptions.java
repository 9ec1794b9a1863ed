package nvidb.cli.commands;

import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sweeps;
import nvidb.core.app.SweepOperations;
import nvidb.core.view.SweepDocuments;
import picocli.CommandLine.Option;

/** {@code --metric NAME [--min|--max] [--sort]} of {@code sweep show} and {@code sweep export}. */
public final class MetricOptions {
    @Option(names = "--metric", paramLabel = "NAME", description = "A numeric result field (a.b for nested ones): the best run first.")
    String metric;

    @Option(names = "--min", description = "The smallest --metric is best (the default).")
    boolean min;

    @Option(names = "--max", description = "The largest --metric is best.")
    boolean max;

    @Option(names = "--sort", description = "Every run in order of --metric, best first (else only the best moves first).")
    boolean sort;

    /** {@code sweep show --json}'s document: at most {@code limit} rows (0: all). */
    SweepDocuments.Shown show(SweepOperations sweeps, Caller caller, long id, int limit) {
        check();
        return sweeps.show(caller, id, metric(), max, sort, limit);
    }

    /** The sweep's rows, in the order these options ask for. */
    Sweeps.Detail detail(SweepOperations sweeps, Caller caller, long id) {
        check();
        return sweeps.detail(caller, id, metric(), max, sort);
    }

    private String metric() {
        return metric == null || metric.isBlank() ? null : metric.strip();
    }

    private void check() {
        if (min && max) {
            throw NvidbException.usage("--min and --max exclude each other: pick the direction in which --metric is better");
        }
        if ((min || max || sort) && (metric == null || metric.isBlank())) {
            throw NvidbException.usage("--min, --max and --sort order by a metric: pass --metric NAME (a result field)");
        }
    }
}
