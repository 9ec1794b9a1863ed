package nvidb.core.sweeps;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.Sweeps;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.api.Times;
import nvidb.core.jobs.JobCommandService;
import nvidb.core.jobs.Submission;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;

/**
 * Sweeps: a submit expands the parameters, renders every run's command (all checked before
 * anything is written), then makes the sweep and every run in one transaction through the same
 * {@link Submission} as {@code job submit}. Following, cancelling and requeueing work on the
 * runs' jobs through the job commands; the limit on parallel runs is the scheduler's
 * ({@code SweepLimits}).
 */
public final class SweepService implements Sweeps {
    private static final Set<JobState> BADLY = Set.of(JobState.FAILED, JobState.TIMEOUT, JobState.LOST);

    private final ServiceContext ctx;
    private final Store store;
    private final Submission submission;

    public SweepService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.submission = new Submission(ctx);
    }

    /** Thrown to roll a dry run's checks back: they may create a lane on first use. */
    private static final class DryRun extends RuntimeException {
        DryRun() {
            super(null, null, false, false);
        }
    }

    @Override
    public Submitted submit(SweepRequest r, boolean dryRun, TickMode after) {
        SubmitRequest template = r.template();
        Submission.check(template, false);
        if (r.maxParallel() != null && r.maxParallel() < 1) {
            throw NvidbException.usage("--max-parallel must be at least 1, not " + r.maxParallel());
        }
        CommandTemplate command = new CommandTemplate(r.command());
        SweepPlan plan = SweepPlan.of(r, command);
        List<String> commands = new ArrayList<>(plan.runs().size());
        for (Map<String, String> run : plan.runs()) {
            commands.add(command.render(run));
        }
        String commandText = r.command().size() == 1 ? r.command().getFirst()
                : nvidb.core.api.ShellQuote.join(r.command());
        if (dryRun) {
            long next = store.db.read(store.sweeps::nextId);
            try {
                store.db.write(() -> {
                    submission.prepare(template); // every check a real submit makes, then nothing kept
                    throw new DryRun();
                });
            } catch (DryRun expected) {
                // rolled back
            }
            Sweep preview = new Sweep(next, stem(template, next), commandText, plan.names(), plan.spec(),
                    r.maxParallel(), template.submitter(), template.idempotencyKey(), Times.now());
            return new Submitted(preview, runs(preview, plan, commands, null), false, true, TickSummary.disabled());
        }
        Submitted made = store.db.write(() -> {
            if (template.idempotencyKey() != null) {
                Optional<Sweep> existing = store.sweeps.findByIdempotencyKey(template.idempotencyKey());
                if (existing.isPresent()) {
                    return new Submitted(existing.get(), storedRuns(existing.get().id()), true, false, null);
                }
            }
            Submission.Prepared prepared = submission.prepare(template);
            submission.admit(prepared, commands.size());
            long id = store.sweeps.insert("", commandText, plan.names(), plan.spec(), r.maxParallel(),
                    prepared.submitter(), template.idempotencyKey(), Times.now());
            Sweep sweep = new Sweep(id, stem(template, id), commandText, plan.names(), plan.spec(), r.maxParallel(),
                    prepared.submitter(), template.idempotencyKey(), Times.now());
            List<Long> jobIds = new ArrayList<>(commands.size());
            for (int i = 0; i < commands.size(); i++) {
                Map<String, String> params = plan.runs().get(i);
                long jobId = submission.insert(prepared, sweep.name() + "-" + i, commands.get(i), env(id, i, params),
                        at(template.at(), i), null);
                store.sweeps.insertRun(id, i, jobId, params);
                jobIds.add(jobId);
            }
            store.sweeps.rename(id, sweep.name());
            return new Submitted(sweep, runs(sweep, plan, commands, jobIds), false, false, null);
        });
        if (made.duplicate()) {
            return new Submitted(made.sweep(), made.runs(), true, false, TickSummary.disabled());
        }
        return new Submitted(made.sweep(), made.runs(), false, false, ctx.tick(ServiceContext.forced(after)));
    }

    /** The runs' name stem: {@code --name}, else {@code sweep<ID>}. */
    private static String stem(SubmitRequest template, long id) {
        return template.name() != null && !template.name().isBlank() ? template.name() : "sweep" + id;
    }

    /** A run's environment: which sweep, which run, and each parameter as {@code NVIDB_PARAM_<NAME>}. */
    private static Map<String, String> env(long sweepId, int index, Map<String, String> params) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NVIDB_SWEEP_ID", String.valueOf(sweepId));
        env.put("NVIDB_SWEEP_INDEX", String.valueOf(index));
        params.forEach((k, v) -> env.put(SweepPlan.variable(k), v));
        return env;
    }

    /**
     * Where run {@code i} goes in its lane when the sweep asks for a place: the runs keep their
     * order from there ({@code head} puts run 0 first, {@code 3} puts run 0 in slot 3, run 1 in 4).
     */
    private static String at(String at, int i) {
        if (at == null || at.equals("tail")) {
            return null;
        }
        if (at.equals("head")) {
            return String.valueOf(i + 1);
        }
        try {
            return String.valueOf(Integer.parseInt(at.strip()) + i);
        } catch (NumberFormatException e) {
            return at; // the lane refuses it, naming what it takes
        }
    }

    private static List<Run> runs(Sweep sweep, SweepPlan plan, List<String> commands, List<Long> jobIds) {
        List<Run> out = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            out.add(new Run(i, plan.runs().get(i), sweep.name() + "-" + i, commands.get(i),
                    jobIds == null ? null : jobIds.get(i)));
        }
        return out;
    }

    /** The runs of a stored sweep, named and with the commands their jobs have (purged ones without). */
    private List<Run> storedRuns(long id) {
        Map<Long, Job> jobs = jobsOf(id);
        List<Run> out = new ArrayList<>();
        for (Run r : store.sweeps.runs(id)) {
            Job j = jobs.get(r.jobId());
            out.add(new Run(r.index(), r.params(), j == null ? null : j.name(), j == null ? null : j.command(), r.jobId()));
        }
        return out;
    }

    private Map<Long, Job> jobsOf(long id) {
        Map<Long, Job> jobs = new HashMap<>();
        store.jobs.inSweep(id).forEach(j -> jobs.put(j.id(), j));
        return jobs;
    }

    private Sweep sweep(long id) {
        return store.db.read(() -> store.sweeps.find(id))
                .orElseThrow(() -> NvidbException.notFound("sweep " + id + " not found"));
    }

    @Override
    public List<Summary> list() {
        return store.db.read(() -> {
            Map<Long, Map<String, Integer>> counts = store.sweeps.counts();
            List<Summary> out = new ArrayList<>();
            for (Sweep s : store.sweeps.all()) {
                out.add(summary(s, counts.getOrDefault(s.id(), Map.of())));
            }
            return out;
        });
    }

    private static Summary summary(Sweep s, Map<String, Integer> states) {
        return new Summary(s, states.values().stream().mapToInt(Integer::intValue).sum(), states);
    }

    @Override
    public Detail show(long id, String metric, boolean maximize, boolean sort) {
        Sweep sweep = sweep(id);
        List<Row> rows = store.db.read(() -> store.sweeps.show(id, ResultMetrics::of));
        List<String> columns = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        Map<String, Integer> states = new LinkedHashMap<>();
        for (Row r : rows) {
            for (String k : r.metrics().keySet()) {
                if (seen.add(k)) {
                    columns.add(k);
                }
            }
            states.merge(r.status().state(), 1, Integer::sum);
        }
        Integer best = null;
        if (metric != null) {
            rows = ResultMetrics.byMetric(rows, metric, maximize, sort);
            best = !rows.isEmpty() && rows.getFirst().metrics().containsKey(metric) ? rows.getFirst().run().index() : null;
        }
        return new Detail(summary(sweep, states), rows, columns, metric, best);
    }

    @Override
    public List<Long> jobIds(long id) {
        sweep(id);
        return store.db.read(() -> store.sweeps.runs(id).stream().map(Run::jobId)
                .filter(jobsOf(id)::containsKey).toList());
    }

    @Override
    public List<JobCommands.Cancelled> cancel(long id) {
        sweep(id);
        List<Long> active = store.db.read(() -> store.jobs.inSweep(id).stream().filter(j -> j.state().active())
                .map(Job::id).toList());
        return active.isEmpty() ? List.of() : new JobCommandService(ctx).cancel(active);
    }

    @Override
    public JobCommands.RequeueResult requeue(long id, boolean cancelled, TickMode after) {
        sweep(id);
        List<Long> ended = store.db.read(() -> store.jobs.inSweep(id).stream()
                .filter(j -> BADLY.contains(j.state()) || (cancelled && j.state() == JobState.CANCELLED))
                .map(Job::id).toList());
        if (ended.isEmpty()) {
            return new JobCommands.RequeueResult(List.of(), TickSummary.disabled());
        }
        return new JobCommandService(ctx).requeue(ended, after);
    }
}
