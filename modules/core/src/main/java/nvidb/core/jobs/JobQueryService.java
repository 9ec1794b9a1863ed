package nvidb.core.jobs;

import nvidb.core.api.JobQueries.BatchInfo;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import nvidb.core.api.Event;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.operation.ServiceContext;
import nvidb.core.scheduler.NodeKills;
import nvidb.core.store.Store;
import nvidb.spi.transport.TransportException;

/** Reading the queue: jobs, one job with its events, the event log, alerts, counts and job logs. */
public final class JobQueryService implements JobQueries {
    private final ServiceContext ctx;
    private final Store store;
    private final NodeKills kills;

    public JobQueryService(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.kills = ctx.kills();
    }

    @Override
    public Job job(long id) {
        return ctx.job(id);
    }

    @Override
    public JobPage jobs(JobQuery q) {
        String node = q.node() == null ? null : ctx.resolveNode(q.node());
        Set<JobState> states = q.states();
        return new JobPage(store.db.read(() -> store.jobs.search(states, q.held(), node, q.tag(), q.sweep(), q.limit())), q.limit());
    }

    @Override
    public int eachJob(JobQuery q, boolean oldestFirst, Consumer<? super Job> sink) {
        String node = q.node() == null ? null : ctx.resolveNode(q.node());
        return store.db.read(() -> store.jobs.each(q.states(), q.held(), node, q.tag(), q.sweep(), q.limit(), oldestFirst, sink));
    }

    @Override
    public List<Job> jobsById(List<Long> ids) {
        return store.db.read(() -> store.jobs.byIds(ids));
    }

    @Override
    public JobDetail show(long id) {
        Job job = job(id);
        BatchInfo batch = store.db.read(() -> store.batch.find(id)).filter(b -> b.batchId() != null)
                .map(b -> new BatchInfo(b.node(), b.batchId(), b.state(), b.reason())).orElse(null);
        return new JobDetail(job, store.db.read(() -> store.events.newest(id, 50)), batch);
    }

    @Override
    public EventPage events(Long since, Long jobId, int limit) {
        List<Event> events = store.db.read(() -> since != null
                ? store.events.since(since, jobId, limit) : store.events.newest(jobId, limit));
        // An empty log with no since is 0, not null: a caller can always pass last_id back as --since.
        long last = !events.isEmpty() ? events.getLast().id() : since == null ? 0 : since;
        return new EventPage(events, last);
    }

    @Override
    public AlertPage alerts(boolean all, int limit) {
        return store.db.read(() -> new AlertPage(store.alerts.newest(all, limit), store.alerts.countOpen()));
    }

    @Override
    public Map<String, Long> countsByState() {
        return store.db.read(store.jobs::countsByState);
    }

    @Override
    public int idleJobs() {
        int after = ctx.config().settings().learning().idleAfterSeconds();
        return after <= 0 ? 0 : store.db.read(() -> store.usage.idleRunning(java.time.Instant.now().minusSeconds(after)));
    }

    @Override
    public String logs(long id, boolean stderr, int lines) {
        if (lines < 1) {
            throw NvidbException.usage("-n takes a number of lines ≥ 1");
        }
        Job job = ctx.job(id);
        if (job.node() == null || job.runDir() == null) {
            return "";
        }
        try {
            return kills.tail(job.node(), job.runDir(), stderr ? "stderr.log" : "stdout.log", lines);
        } catch (TransportException e) {
            throw NvidbException.failed("cannot read the log of job " + id + " on " + job.node() + ": " + e.getMessage());
        }
    }
}
