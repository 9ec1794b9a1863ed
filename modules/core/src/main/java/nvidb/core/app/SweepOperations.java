package nvidb.core.app;

import nvidb.core.api.NvidbException;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import nvidb.core.api.Caller;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sweeps;
import nvidb.core.api.TickMode;
import nvidb.core.view.SweepDocuments;
import nvidb.core.view.TickView;

/**
 * {@code job sweep} and the {@code sweep} commands: a sweep is one job per parameter set, made all
 * at once. Each operation takes the {@link Caller} who asks; each change runs with it bound.
 */
public final class SweepOperations {
    private final Application app;

    SweepOperations(Application app) {
        this.app = app;
    }

    private Sweeps sweeps() {
        return app.queue().sweeps();
    }

    /** {@code job sweep}: the sweep and its runs, all made or none ({@code dryRun}: only expanded, nothing stored). */
    public SweepDocuments.Submitted submit(Caller caller, Sweeps.SweepRequest request, boolean dryRun, TickMode after) {
        Sweeps.Submitted s = Application.as(caller, () -> sweeps().submit(request, dryRun, after));
        return new SweepDocuments.Submitted(true, s.dryRun(), s.duplicate(), SweepDocuments.SweepView.of(s.sweep()),
                s.runs().stream().map(SweepDocuments.Run::of).toList(), TickView.of(s.tick()));
    }

    /** {@code sweep ls}: every sweep, newest first, with its runs' counts by state. */
    public SweepDocuments.Listed list(Caller caller) {
        Instant now = Instant.now();
        return new SweepDocuments.Listed(summaries(caller).stream().map(s -> SweepDocuments.Summary.of(s, now)).toList());
    }

    /** The same sweeps as values (a table). */
    public List<Sweeps.Summary> summaries(Caller caller) {
        return sweeps().list();
    }

    /**
     * {@code sweep show}: the sweep's summary, its metric columns, the best run by {@code metric}
     * (null: none; smallest best unless {@code maximize}), then at most {@code limit} rows (0: all),
     * the best first ({@code sort}: all in order of the metric).
     */
    public SweepDocuments.Shown show(Caller caller, long id, String metric, boolean maximize, boolean sort, int limit) {
        Sweeps.Detail d = detail(caller, id, metric, maximize, sort);
        Instant now = Instant.now();
        return new SweepDocuments.Shown(SweepDocuments.Summary.of(d.summary(), now), d.columns(), d.metric(), d.best(),
                limited(d.rows(), limit).stream().map(r -> SweepDocuments.Row.of(r, d.best(), now)).toList());
    }

    /** The same sweep as values (a table, an export), every row. */
    public Sweeps.Detail detail(Caller caller, long id, String metric, boolean maximize, boolean sort) {
        return sweeps().show(id, metric, maximize, sort);
    }

    /** The first {@code limit} rows (0: all). */
    public static <T> List<T> limited(List<T> rows, int limit) {
        return limit > 0 && rows.size() > limit ? rows.subList(0, limit) : rows;
    }

    /** The job ids of a sweep's runs. */
    public List<Long> jobIds(Caller caller, long id) {
        return sweeps().jobIds(id);
    }

    /** {@code sweep cancel}: every run still pending or running is cancelled (as {@code job cancel} does each). */
    public SweepDocuments.Cancelled cancel(Caller caller, long id) {
        requireRuns(caller, id, "cancel");
        List<JobCommands.Cancelled> results = Application.as(caller, () -> sweeps().cancel(id));
        return new SweepDocuments.Cancelled(true, id, results.stream().filter(JobCommands.Cancelled::cancelled)
                .map(JobCommands.Cancelled::id).toList());
    }

    /** {@code sweep requeue}: the runs that ended badly ({@code cancelled}: the cancelled ones too) run again. */
    public SweepDocuments.Requeued requeue(Caller caller, long id, boolean cancelled, TickMode after) {
        requireRuns(caller, id, "requeue");
        JobCommands.RequeueResult r = Application.as(caller, () -> sweeps().requeue(id, cancelled, after));
        return new SweepDocuments.Requeued(true, id, r.results().stream().filter(JobCommands.Requeued::requeued)
                .map(JobCommands.Requeued::id).toList(), TickView.of(r.tick()));
    }

    /** A sweep's runs are its submitter's: the whole sweep is refused when any run is another account's. */
    private void requireRuns(Caller caller, long id, String action) {
        for (long run : sweeps().jobIds(id)) {
            app.ownership().require(caller, run, action);
        }
    }

    /**
     * {@code sweep wait}: waits for every run ({@link JobOperations#await}, {@code stillGoing} told
     * of the first run still going after each look), then the sweep as it stands.
     */
    public Waited waitFor(Caller caller, long id, Integer timeoutSeconds, TickMode firstPass, Consumer<Job> stillGoing) {
        List<Long> ids = jobIds(caller, id);
        JobOperations.Waited o = app.jobOps().await(caller, ids, timeoutSeconds, firstPass, stillGoing);
        Sweeps.Summary summary = summaries(caller).stream().filter(s -> s.sweep().id() == id).findFirst().orElseThrow();
        return new Waited(o, new SweepDocuments.Waited(true, SweepDocuments.Summary.of(summary, Instant.now()), ids,
                o.allDone(), o.allSucceeded(), o.timedOut(), o.interrupted()));
    }

    /** What {@link #waitFor} found: the wait for the runs, and the document of it. */
    public record Waited(JobOperations.Waited runs, SweepDocuments.Waited document) {
    }

    /**
     * The metric a sweep's runs are ordered by ({@code --metric NAME [--min|--max] [--sort]}),
     * blank as none; the directions and {@code --sort} need one.
     */
    public static String orderMetric(String metric, boolean min, boolean max, boolean sort) {
        if (min && max) {
            throw NvidbException.usage("--min and --max exclude each other: pick the direction in which --metric is better");
        }
        String m = metric == null || metric.isBlank() ? null : metric.strip();
        if ((min || max || sort) && m == null) {
            throw NvidbException.usage("--min, --max and --sort order by a metric: pass --metric NAME (a result field)");
        }
        return m;
    }
}
