package nvidb.core.app;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import nvidb.core.api.Caller;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobEdits;
import nvidb.core.api.JobQueries;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.QueueAccess;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import nvidb.core.view.AlertView;
import nvidb.core.view.BatchView;
import nvidb.core.view.EventView;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobListing;
import nvidb.core.view.JobStream;
import nvidb.core.view.JobView;
import nvidb.core.view.LaneView;
import nvidb.core.view.NodeView;
import nvidb.core.view.QueueDocuments;
import nvidb.core.view.StatusDocument;
import nvidb.core.view.TickView;

/**
 * The application layer: the typed operations every front end (the CLI, the TUI, the web, what
 * comes next) calls, each taking the {@link Caller} who asks and returning the document the CLI's
 * {@code --json} prints. A front end parses its own input into arguments, calls one operation and
 * renders what it gets back; it never builds another front end's input nor parses a document back.
 * Each operation runs with its caller bound ({@link Caller#ACTING}), so the events it writes record
 * who asked: this is where rules about who may do what will live, once for every front end.
 */
public final class Application {
    private final QueueAccess access;
    private final JobOperations jobOps;
    private final SweepOperations sweeps;
    private final LaneOperations laneOps;
    private final BackupOperations backups;
    private final WebTokenOperations webTokens;

    /** Operations on the queue {@code access} opens (on first use) and keeps. */
    public Application(QueueAccess access) {
        this.access = access;
        this.jobOps = new JobOperations(this);
        this.sweeps = new SweepOperations(this);
        this.laneOps = new LaneOperations(this);
        this.backups = new BackupOperations(this);
        this.webTokens = new WebTokenOperations(this);
    }

    Queue queue() {
        return access.queue();
    }

    /** Runs {@code op} for {@code caller}: the events it writes record them. */
    static <T> T as(Caller caller, Supplier<T> op) {
        return ScopedValue.where(Caller.ACTING, caller).call(op::get);
    }

    /** Submitting a job, editing what it waits for, its note and result; releasing, purging, waiting, following its log. */
    public JobOperations jobOps() {
        return jobOps;
    }

    /** Parameter sweeps: submitting, listing, showing, cancelling, requeueing and waiting for them. */
    public SweepOperations sweeps() {
        return sweeps;
    }

    /** One lane: its queue, reordering it, what it may run, its runner. */
    public LaneOperations laneOps() {
        return laneOps;
    }

    /** Backing the queue up while it works, and restoring a backup. */
    public BackupOperations backups() {
        return backups;
    }

    /** A scheduler pass as {@code mode} says (a read command's pass before it reads, a TUI's or web's when due). */
    public TickSummary tick(Caller caller, TickMode mode) {
        return as(caller, () -> queue().tick(mode));
    }

    /** {@code queue tick}: a pass now, its alert delivery taking up to 30 s (none while a daemon serves the queue). */
    public TickSummary pass(Caller caller) {
        return as(caller, () -> queue().pass());
    }

    /** The queue daemon serving this database, if any. */
    public Optional<DaemonInfo> daemon() {
        return queue().daemon();
    }

    /**
     * {@code nvidb doctor}: the checks of this machine's queue host, in the order a person would
     * fix them (see {@link QueueAccess#doctor}); never throws for what it finds, and opens no queue
     * that the checks did not find sound.
     */
    public List<nvidb.core.api.HealthCheck> doctor(Caller caller) {
        return access.doctor();
    }

    /** The per-user web tokens: {@code queue web token}, and whose token a request carries. */
    public WebTokenOperations webTokens() {
        return webTokens;
    }

    /** Where the queue database is (nothing opened). */
    java.nio.file.Path databasePath() {
        return access.database();
    }

    /** Where the queue lives and the settings a status view shows. */
    public Queue.Info info() {
        return queue().info();
    }

    /** When the last pass finished, or null before the first. */
    public Instant lastTickAt() {
        return queue().lastTickAt();
    }

    // --- reading --------------------------------------------------------------------------

    /** {@code queue status}: one document for every front end; see {@link StatusReport}. */
    public StatusDocument status(Caller caller, StatusQuery query) {
        return as(caller, () -> StatusReport.build(queue(), access.keeper(), query, Instant.now()));
    }

    /** {@code queue status --summary}: counts, nodes with their budgets, open alerts; no job lists. */
    public nvidb.core.view.StatusSummary statusSummary(Caller caller, StatusQuery query) {
        return as(caller, () -> StatusReport.summary(queue(), access.keeper(), query, Instant.now()));
    }

    /**
     * {@code queue status} as values, with the query's limits, for a front end that words or draws
     * it itself (the CLI's text, the TUI's screen): what {@link #status}'s document holds.
     */
    public StatusValues statusValues(Caller caller, StatusQuery query) {
        return as(caller, () -> StatusReport.values(queue(), access.keeper(), query, Instant.now()));
    }

    /**
     * {@code job ls}: the jobs read while the document is written (a node that does not resolve is
     * refused before the first job is read).
     */
    public JobListing jobs(Caller caller, JobQuery query) {
        checkLimit(query.limit());
        return new JobListing(new JobStream(queue().jobQueries(), query, false, Instant.now()), query.limit());
    }

    /** The same jobs as values (a table, the TUI's rows), newest first. */
    public List<Job> jobList(Caller caller, JobQuery query) {
        checkLimit(query.limit());
        return queue().jobQueries().jobs(query).jobs();
    }

    private static void checkLimit(int limit) {
        if (limit < 0) {
            throw NvidbException.usage("--limit cannot be negative (0 lists every job)");
        }
    }

    /** {@code job show}: a job in full with its events, and the last {@code logLines} of its stdout when asked. */
    public JobDocuments.Shown job(Caller caller, long id, Integer logLines) {
        JobQueries.JobDetail detail = jobDetail(caller, id);
        return new JobDocuments.Shown(JobView.of(detail.job(), Instant.now()), BatchView.of(detail),
                detail.events().stream().map(EventView::of).toList(),
                logLines == null ? null : logTail(caller, id, logLines));
    }

    /** A job with its events and its batch system's word, as values. */
    public JobQueries.JobDetail jobDetail(Caller caller, long id) {
        return queue().jobQueries().show(id);
    }

    /** The last {@code lines} of a job's stdout, or a sentence saying why it cannot be read. */
    public String logTail(Caller caller, long id, int lines) {
        try {
            return logs(caller, id, false, lines);
        } catch (NvidbException e) {
            return "(log unavailable: " + e.getMessage() + ")";
        }
    }

    /** The last {@code lines} lines of a job's stdout or stderr, read from its node. */
    public String logs(Caller caller, long id, boolean stderr, int lines) {
        return queue().jobQueries().logs(id, stderr, lines);
    }

    /** {@code job logs} without {@code --follow}: the last {@code lines} of a job's stdout or stderr. */
    public JobDocuments.LogChunk logChunk(Caller caller, long id, boolean stderr, int lines) {
        return new JobDocuments.LogChunk(id, stderr ? "stderr" : "stdout", logs(caller, id, stderr, lines));
    }

    /** How many jobs are in each state, by the state's label. */
    /** Running jobs whose GPUs have sat idle for {@code queue.idle_after} ({@code /metrics}). */
    public int idleJobs(Caller caller) {
        return queue().jobQueries().idleJobs();
    }

    public java.util.Map<String, Long> counts(Caller caller) {
        return queue().jobQueries().countsByState();
    }

    /** How long the last finished pass took (ms), or -1 before the first. */
    public long lastTickMillis() {
        return queue().lastTickMillis();
    }

    /** The queue's samples over {@code range}, as the passes recorded them, oldest first. */
    public List<nvidb.core.api.History.QueueSample> queueSamples(Caller caller, nvidb.core.api.History.Range range) {
        return queue().history().queue(range);
    }

    /** {@code queue events}: the log after {@code since} (oldest first), or the newest {@code limit}. */
    public QueueDocuments.Events events(Caller caller, Long since, Long jobId, int limit) {
        return eventsDocument(eventPage(caller, since, jobId, limit));
    }

    public JobQueries.EventPage eventPage(Caller caller, Long since, Long jobId, int limit) {
        if (limit < 1) {
            throw NvidbException.usage("-n takes a number ≥ 1");
        }
        return queue().jobQueries().events(since, jobId, limit);
    }

    public static QueueDocuments.Events eventsDocument(JobQueries.EventPage page) {
        return new QueueDocuments.Events(page.events().stream().map(EventView::of).toList(), page.lastId());
    }

    /** {@code queue alerts}: the newest {@code limit} open alerts (every one with {@code all}) and how many are open. */
    public QueueDocuments.Alerts alerts(Caller caller, boolean all, int limit) {
        return alertsDocument(alertPage(caller, all, limit));
    }

    public static QueueDocuments.Alerts alertsDocument(JobQueries.AlertPage page) {
        return new QueueDocuments.Alerts(page.alerts().stream().map(AlertView.Listed::of).toList(), page.open());
    }

    public JobQueries.AlertPage alertPage(Caller caller, boolean all, int limit) {
        if (limit < 1) {
            throw NvidbException.usage("-n takes a number ≥ 1");
        }
        return queue().jobQueries().alerts(all, limit);
    }

    /** {@code queue nodes}: per-GPU memory, utilisation and processes. */
    public QueueDocuments.Nodes nodes(Caller caller, boolean includeIgnored) {
        return new QueueDocuments.Nodes(nodeViews(caller, includeIgnored).stream().map(v -> NodeView.of(v, false)).toList());
    }

    public List<NodeAdmin.NodeView> nodeViews(Caller caller, boolean includeIgnored) {
        return queue().nodeAdmin().nodes(includeIgnored);
    }

    /** {@code queue lanes}: every GPU lane (of one node), what it runs and why it waits. */
    public QueueDocuments.Lanes lanes(Caller caller, String node) {
        Instant now = Instant.now();
        return new QueueDocuments.Lanes(laneViews(caller, node).stream().map(v -> LaneView.Detail.of(v, now)).toList());
    }

    public List<LaneQueries.LaneView> laneViews(Caller caller, String node) {
        return queue().laneQueries().list(node);
    }

    /** {@code queue history}: a GPU's ({@code NODE:INDEX}) or, with {@code gpu} null, the queue's samples. */
    public QueueHistory.Read history(Caller caller, String gpu, String range) {
        return QueueHistory.read(queue().history(), gpu, range);
    }

    /**
     * {@code queue usage}: the jobs that ran since {@code since} ({@code 7d}, {@code 12h}, an ISO
     * date or time, {@code all}; null: {@link UsageReport#DEFAULT_SINCE}) grouped {@code by} user,
     * sweep, node or name (null: user).
     */
    public nvidb.core.view.UsageDocuments.Report usage(Caller caller, String since, String by) {
        return UsageReport.build(queue().history(), since, by, Instant.now());
    }

    /** Each user's GPUs running now and GPU-seconds ever ({@code /metrics}). */
    public List<UsageReport.UserLoad> userLoads(Caller caller) {
        return UsageReport.users(queue().history(), Instant.now());
    }

    // --- acting ---------------------------------------------------------------------------

    /** {@code job cancel}: every id that can be is cancelled; see {@link Verdicts}. */
    public Acted<JobDocuments.Several<JobDocuments.Cancelled>> cancel(Caller caller, List<Long> ids) {
        Ownership.Split split = ownership().split(caller, ids, "cancel");
        List<JobCommands.Cancelled> results = split.allowed().isEmpty() ? List.of()
                : as(caller, () -> queue().jobCommands().cancel(split.allowed()));
        List<Verdicts.Item> items = split.merge(ids, results.stream()
                .map(c -> new Verdicts.Item(c.id(), c.cancelled(), c.state())).toList());
        Verdicts.Verdict verdict = Verdicts.verdict(items, "cancel");
        List<JobDocuments.Cancelled> views = new ArrayList<>();
        int next = 0;
        for (Verdicts.Item item : items) {
            JobCommands.Cancelled c = split.refused().containsKey(item.id()) ? null : results.get(next++);
            views.add(new JobDocuments.Cancelled(Verdicts.view(item, "cancel"), c != null && c.cancelled(),
                    c == null ? List.of() : c.holds()));
        }
        return verdict.with(new JobDocuments.Several<>(verdict.view(), views, null));
    }

    /** Who may change which job ({@code queue.admins}, each job's account). */
    Ownership ownership() {
        return new Ownership(queue());
    }

    /** {@code job requeue}: every id that can be is requeued, then a pass as {@code after} says. */
    public Acted<JobDocuments.Several<JobDocuments.Requeued>> requeue(Caller caller, List<Long> ids, TickMode after) {
        Ownership.Split split = ownership().split(caller, ids, "requeue");
        JobCommands.RequeueResult result = split.allowed().isEmpty()
                ? new JobCommands.RequeueResult(List.of(), nvidb.core.api.TickSummary.disabled())
                : as(caller, () -> queue().jobCommands().requeue(split.allowed(), after));
        List<Verdicts.Item> items = split.merge(ids, result.results().stream()
                .map(r -> new Verdicts.Item(r.id(), r.requeued(), r.state())).toList());
        Verdicts.Verdict verdict = Verdicts.verdict(items, "requeue");
        List<JobDocuments.Requeued> views = new ArrayList<>();
        for (Verdicts.Item item : items) {
            views.add(new JobDocuments.Requeued(Verdicts.view(item, "requeue"), item.done()));
        }
        return verdict.with(new JobDocuments.Several<>(verdict.view(), views, TickView.of(result.tick())));
    }

    /** {@code job priority ID [VALUE]}: reads it, sets it ({@code 5}) or adjusts it ({@code +1}, {@code -2}). */
    public JobDocuments.Priority priority(Caller caller, long id, String value) {
        if (value != null) {
            ownership().require(caller, id, "re-prioritise");
        }
        Job job = value == null ? queue().jobQueries().job(id) : as(caller, () -> queue().jobEdits().setPriority(id, value));
        return new JobDocuments.Priority(value != null ? Boolean.TRUE : null, job.id(), job.priority(), job.state().label());
    }

    /** {@code job priority ID --up N | --down N}: moves a pending job {@code slots} earlier (negative: later). */
    public JobDocuments.Moved movePriority(Caller caller, long id, int slots) {
        if (slots == 0) {
            throw NvidbException.usage("--up and --down take a positive number of slots");
        }
        ownership().require(caller, id, "re-prioritise");
        JobEdits.Moved moved = as(caller, () -> queue().jobEdits().movePriority(id, slots));
        return new JobDocuments.Moved(moved.id(), moved.moved(), moved.priority(), moved.slot());
    }

    /** {@code queue ack}: every named alert that exists (or every open one with {@code all}). */
    public Acted<QueueDocuments.Acked> ack(Caller caller, List<Long> ids, boolean all) {
        JobCommands.AckResult r = as(caller, () -> queue().jobCommands().acknowledge(ids, all));
        // Like the operations on several jobs: every alert that exists is acknowledged; an unknown
        // id is reported and makes the whole not found, without undoing the others.
        List<Long> missing = r.results().stream().filter(a -> !a.found()).map(JobCommands.Acknowledged::id).toList();
        String error = missing.isEmpty() ? null : "alert" + (missing.size() > 1 ? "s " : " ")
                + String.join(", ", missing.stream().map(String::valueOf).toList()) + " not found";
        String notFound = ErrorCode.NOT_FOUND.label();
        QueueDocuments.Acked doc = new QueueDocuments.Acked(error == null, error, error == null ? null : notFound,
                r.acknowledged(), r.results().stream().map(x -> new QueueDocuments.AckResult(x.id(), x.found(),
                        x.acknowledged(), x.found() ? null : "alert " + x.id() + " not found",
                        x.found() ? null : notFound)).toList());
        return new Acted<>(doc, error == null ? null : ErrorCode.NOT_FOUND, error);
    }

    /** {@code queue drain} (true) or {@code queue resume} (false). */
    public QueueDocuments.NodeSwitched drain(Caller caller, String node, boolean drain) {
        NodeRecord n = as(caller, () -> queue().nodeAdmin().setDrained(node, drain));
        return new QueueDocuments.NodeSwitched(true, n.name(), n.enabled(), null);
    }

    /** {@code queue ignore} (true) or {@code queue unignore} (false). */
    public QueueDocuments.NodeSwitched ignore(Caller caller, String node, boolean ignore) {
        NodeRecord n = as(caller, () -> queue().nodeAdmin().setIgnored(node, ignore));
        return new QueueDocuments.NodeSwitched(true, n.name(), null, n.ignored());
    }

    /** Pending and running jobs, and held ones: what a status lists. */
    static final JobQuery ACTIVE = new JobQuery(EnumSet.of(JobState.PENDING, JobState.RUNNING), false, null, null, 0);
}
