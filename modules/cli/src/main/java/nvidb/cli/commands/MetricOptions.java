package nvidb.cli.commands;

import nvidb.core.api.Caller;
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
        return sweeps.show(caller, id, metric(), max, sort, limit);
    }

    /** The sweep's rows, in the order these options ask for. */
    Sweeps.Detail detail(SweepOperations sweeps, Caller caller, long id) {
        return sweeps.detail(caller, id, metric(), max, sort);
    }

    private String metric() {
        return SweepOperations.orderMetric(metric, min, max, sort);
    }
}
