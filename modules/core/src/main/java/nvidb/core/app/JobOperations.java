package nvidb.core.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Ids;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobEdits;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Queue;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.TickMode;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
import nvidb.core.view.StoredJson;
import nvidb.core.view.TickView;

/**
 * The operations on jobs beyond reading and cancelling them ({@link Application}): submitting,
 * what a job waits for, its note and result, releasing held jobs, purging finished ones, waiting
 * for jobs to end and following a log. Each takes the {@link Caller} who asks; each change runs
 * with it bound.
 */
public final class JobOperations {
    /** How often a wait or a followed log looks again. */
    public static final Duration POLL = Duration.ofSeconds(2);

    private static final String SWEEP = "sweep:";

    private final Application app;

    JobOperations(Application app) {
        this.app = app;
    }

    private Queue queue() {
        return app.queue();
    }

    // --- submitting and editing -----------------------------------------------------------

    /** {@code job submit}: the job made (or, for a repeated idempotency key, the one made before), and the pass after. */
    public JobDocuments.Submitted submit(Caller caller, SubmitRequest request, TickMode after) {
        JobCommands.Submitted s = Application.as(caller, () -> queue().jobCommands().submit(request, after));
        return new JobDocuments.Submitted(true, s.duplicate(), JobView.of(s.job(), Instant.now()), TickView.of(s.tick()),
                null);
    }

    /** {@code job submit --dry-run}: every check a submit makes and the reservation it would get; nothing is queued. */
    public JobDocuments.Previewed preview(Caller caller, SubmitRequest request) {
        JobCommands.Preview p = Application.as(caller, () -> queue().jobCommands().preview(request));
        return new JobDocuments.Previewed(true, true, p.vramMb(), nvidb.core.api.Sizes.format(p.vramMb()),
                nvidb.core.view.StoredJson.parsed(p.vramSource()), p.node(), p.lane(), p.submitter(), p.oomRetry());
    }

    /**
     * {@code job submit --wait}: the submit's document with its job as the wait left it, and whether
     * an interrupt ended the wait ({@code waited} null: the job had ended before any wait).
     */
    public JobDocuments.Submitted afterWait(JobDocuments.Submitted submitted, Waited waited) {
        JobView job = waited == null ? submitted.job() : JobView.of(waited.jobs().getFirst(), Instant.now());
        return new JobDocuments.Submitted(submitted.ok(), submitted.duplicate(), job, submitted.tick(),
                waited != null && waited.interrupted());
    }

    /** Job ids as typed (comma lists), where {@code sweep:ID} stands for every run of that sweep (made all at once, so known now). */
    public List<Long> dependencies(Caller caller, List<String> typed) {
        List<String> plain = new ArrayList<>();
        List<Long> runs = new ArrayList<>();
        for (String arg : typed) {
            for (String part : arg.split(",")) {
                String p = part.strip();
                if (p.regionMatches(true, 0, SWEEP, 0, SWEEP.length())) {
                    runs.addAll(queue().sweeps().jobIds(Ids.parse(p.substring(SWEEP.length()))));
                } else {
                    plain.add(p);
                }
            }
        }
        List<Long> ids = Ids.parseLists(plain);
        ids.addAll(runs);
        return ids;
    }

    /** {@code job edit}: what a pending or running job waits for, changed; then a pass as {@code after} says. */
    public JobDocuments.Edited editDependencies(Caller caller, long id, List<Long> addAfter, List<Long> dropAfter,
                                                List<Long> addAny, List<Long> dropAny, TickMode after) {
        app.ownership().require(caller, id, "edit");
        JobEdits.Edited edited = Application.as(caller, () -> queue().jobEdits().editDependencies(id, addAfter,
                dropAfter, addAny, dropAny, after));
        return new JobDocuments.Edited(true, edited.changed(), JobView.of(edited.job(), Instant.now()),
                TickView.of(edited.tick()));
    }

    /** {@code job note N}: the note, and the job's last progress line. */
    public JobDocuments.Note note(Caller caller, long id) {
        Job job = queue().jobQueries().job(id);
        return new JobDocuments.Note(job.id(), job.notes(), job.progress());
    }

    /** {@code job note N TEXT}: replaces the note ({@code text} null: removes it), or appends to it. */
    public JobDocuments.Noted setNote(Caller caller, long id, String text, boolean append) {
        app.ownership().require(caller, id, "note");
        Job job = Application.as(caller, () -> queue().jobEdits().setNote(id, text, append));
        return new JobDocuments.Noted(true, job.id(), job.notes());
    }

    /** {@code job result N}: the job, whose result a front end words itself; see {@link #resultDocument}. */
    public Job result(Caller caller, long id) {
        return queue().jobQueries().job(id);
    }

    /** {@code job result N --set JSON}: the job with {@code json} stored as its result. */
    public Job setResult(Caller caller, long id, String json) {
        app.ownership().require(caller, id, "set the result of");
        return Application.as(caller, () -> queue().jobEdits().setResult(id, json));
    }

    /** {@code job result}'s document; {@code ok} only when it was {@code set}. */
    public static JobDocuments.Result resultDocument(Job job, boolean set) {
        return new JobDocuments.Result(set ? Boolean.TRUE : null, job.id(), job.state().label(),
                StoredJson.parsed(job.resultJson()));
    }

    // --- acting on several ----------------------------------------------------------------

    /** {@code job release}: every held id that can be is released, then a pass as {@code after} says; see {@link Verdicts}. */
    public Acted<JobDocuments.Several<JobDocuments.Released>> release(Caller caller, List<Long> ids, TickMode after) {
        Ownership.Split split = app.ownership().split(caller, ids, "release");
        JobCommands.ReleaseResult result = split.allowed().isEmpty()
                ? new JobCommands.ReleaseResult(List.of(), nvidb.core.api.TickSummary.disabled())
                : Application.as(caller, () -> queue().jobCommands().release(split.allowed(), after));
        List<Verdicts.Item> items = split.merge(ids, result.results().stream()
                .map(r -> new Verdicts.Item(r.id(), r.released(), r.state(), r.reason())).toList());
        Verdicts.Verdict verdict = Verdicts.verdict(items, "release");
        List<JobDocuments.Released> views = new ArrayList<>();
        int next = 0;
        for (Verdicts.Item item : items) {
            JobCommands.Released r = split.refused().containsKey(item.id()) ? null : result.results().get(next++);
            views.add(new JobDocuments.Released(Verdicts.view(item, "release"), r != null && r.released(),
                    r == null ? item.refusal() : r.reason(), r == null ? List.of() : r.dropped()));
        }
        return verdict.with(new JobDocuments.Several<>(verdict.view(), views, TickView.of(result.tick())));
    }

    /** {@code job purge}: deletes finished job records in {@code states} (every finished state when empty). */
    public JobDocuments.Purged purge(Caller caller, Set<JobState> states) {
        return new JobDocuments.Purged(true, Application.as(caller, () -> queue().jobCommands().purge(states)));
    }

    // --- waiting --------------------------------------------------------------------------

    /**
     * What waiting for jobs found: the jobs waited for as they stand (unknown ids left out), whether
     * the time ran out with work still going, whether an interrupt (Ctrl-C, SIGTERM) ended it (the
     * jobs keep going), and each id asked for: waited for, or unknown.
     */
    public record Waited(List<Job> jobs, boolean timedOut, boolean interrupted, List<Verdicts.Item> items) {
        public boolean allDone() {
            return jobs.stream().allMatch(j -> j.state().terminal());
        }

        public boolean allSucceeded() {
            return jobs.stream().allMatch(j -> j.state() == JobState.COMPLETED);
        }

        /** The whole's code: not found when an id asked for is unknown. */
        public Verdicts.Verdict verdict() {
            return Verdicts.verdict(items, "wait for");
        }
    }

    /**
     * {@code job wait}: waits for every id that exists until all have ended, {@code timeoutSeconds}
     * run out (null or 0: no limit) or an interrupt comes; an unknown id is reported in
     * {@link Waited#items}, as for every operation on several ids.
     */
    public Waited waitFor(Caller caller, List<Long> ids, Integer timeoutSeconds, TickMode firstPass,
                          Consumer<Job> stillGoing) {
        List<Job> known = queue().jobQueries().jobsById(ids);
        List<Long> waitable = ids.stream().distinct().filter(id -> known.stream().anyMatch(j -> j.id() == id)).toList();
        Waited o = await(caller, waitable, timeoutSeconds, firstPass, stillGoing);
        return new Waited(o.jobs(), o.timedOut(), o.interrupted(), items(ids, o.jobs()));
    }

    /**
     * Waits until every one of {@code ids} (each must exist) has ended, {@code timeoutSeconds} run
     * out (null or 0: no limit) or an interrupt comes: a look every {@link #POLL}, after which
     * {@code stillGoing} is told of the first job still going (the same object again when nothing
     * was read anew: the database had not changed). The first look's pass is as
     * {@code firstPass} says (the command's {@code --tick}/{@code --no-tick}), the later ones' when
     * due, or none at all after {@code --no-tick} (a daemon, or another client, moves the jobs on).
     * An interrupt is consumed here: reading the jobs, and their logs after, must still work.
     */
    public Waited await(Caller caller, List<Long> ids, Integer timeoutSeconds, TickMode firstPass,
                        Consumer<Job> stillGoing) {
        if (ids.isEmpty()) {
            return new Waited(List.of(), false, false, List.of());
        }
        Instant deadline = timeoutSeconds == null || timeoutSeconds <= 0 ? null : Instant.now().plusSeconds(timeoutSeconds);
        TickMode mode = firstPass;
        List<Job> jobs = null;
        long seen = 0;
        while (true) {
            try {
                app.tick(caller, mode);
            } catch (NvidbException e) {
                if (e.code() != ErrorCode.INTERRUPTED) {
                    throw e;
                }
                return interrupted(ids);
            }
            // With no pass of its own (--no-tick: a daemon moves the jobs on), a look at an unchanged
            // database reads nothing again: an idle wait on many jobs costs one PRAGMA per look.
            long version = queue().dataVersion();
            if (jobs == null || mode != TickMode.NONE || version != seen) {
                jobs = queue().jobQueries().jobsById(ids);
                seen = version;
            }
            mode = firstPass == TickMode.NONE ? TickMode.NONE : TickMode.AUTO;
            List<Job> found = jobs;
            if (found.size() != ids.stream().distinct().count()) {
                throw NvidbException.notFound("job(s) disappeared while waiting: "
                        + ids.stream().filter(id -> found.stream().noneMatch(j -> j.id() == id)).toList());
            }
            Waited o = new Waited(jobs, false, false, items(ids, jobs));
            if (o.allDone()) {
                return o;
            }
            if (deadline != null && !Instant.now().isBefore(deadline)) {
                return new Waited(jobs, true, false, o.items());
            }
            stillGoing.accept(jobs.stream().filter(j -> !j.state().terminal()).findFirst().orElseThrow());
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                return interrupted(ids);
            }
        }
    }

    private Waited interrupted(List<Long> ids) {
        Thread.interrupted();
        List<Job> jobs = queue().jobQueries().jobsById(ids);
        return new Waited(jobs, false, true, items(ids, jobs));
    }

    private static List<Verdicts.Item> items(List<Long> ids, List<Job> jobs) {
        return ids.stream().distinct().map(id -> jobs.stream().filter(j -> j.id() == id).findFirst()
                .map(j -> new Verdicts.Item(id, true, j.state().label()))
                .orElseGet(() -> new Verdicts.Item(id, false, null))).toList();
    }

    /** {@code job wait}'s document; with {@code logLines}, the last lines of each job's stdout (JSON null: it has no log). */
    public JobDocuments.Waited waited(Caller caller, Waited o, Integer logLines) {
        List<JobDocuments.WaitedJob> jobs = new ArrayList<>();
        for (Job j : o.jobs()) {
            JsonNode tail = logLines == null ? null : j.runDir() == null ? NullNode.getInstance()
                    : TextNode.valueOf(app.logs(caller, j.id(), false, logLines));
            jobs.add(new JobDocuments.WaitedJob(JobView.of(j, Instant.now()), tail));
        }
        return new JobDocuments.Waited(o.verdict().view(), o.items().stream().map(i -> Verdicts.view(i, "wait for"))
                .toList(), jobs, o.allDone(), o.allSucceeded(), o.timedOut(), o.interrupted());
    }

    // --- following a log ------------------------------------------------------------------

    /** The job as it stands. */
    public Job job(Caller caller, long id) {
        return queue().jobQueries().job(id);
    }

    /**
     * {@code job logs -f}: hands {@code output} what the job's stdout (or stderr, as {@code shown}
     * says) adds after {@code shown}, which was handed on already ({@link Application#logChunk}),
     * every {@link #POLL} (a pass when due before each look, none with {@code passes} NONE: the
     * command's {@code --no-tick}) until the job ends; returns the last word. {@code lines} is how
     * many lines {@code shown} held. An interrupt ends it with {@link NvidbException#interrupted}.
     */
    public JobDocuments.LogEnd follow(Caller caller, JobDocuments.LogChunk shown, int lines, TickMode passes,
                                      Consumer<JobDocuments.LogChunk> output) {
        long id = shown.id();
        boolean stderr = shown.stream().equals("stderr");
        int window = Math.max(lines, 10_000);
        String seen = shown.log();
        while (true) {
            Job job = job(caller, id);
            if (job.state().terminal()) {
                String last = app.logs(caller, id, stderr, window);
                output.accept(new JobDocuments.LogChunk(id, shown.stream(), suffixAfter(seen, last)));
                return new JobDocuments.LogEnd(id, shown.stream(), true, job.state().label(), job.exitCode());
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw NvidbException.interrupted();
            }
            app.tick(caller, passes == TickMode.NONE ? TickMode.NONE : TickMode.AUTO);
            String now = app.logs(caller, id, stderr, window);
            output.accept(new JobDocuments.LogChunk(id, shown.stream(), suffixAfter(seen, now)));
            seen = now;
        }
    }

    /** What {@code now} adds after the text already handed on (its end overlaps the start of {@code now}). */
    static String suffixAfter(String seen, String now) {
        if (seen.isEmpty()) {
            return now;
        }
        if (now.startsWith(seen)) {
            return now.substring(seen.length());
        }
        // The window slid: find the longest end of what was handed on that starts the new text.
        for (int k = Math.min(seen.length(), now.length()); k > 0; k--) {
            if (now.startsWith(seen.substring(seen.length() - k))) {
                return now.substring(k);
            }
        }
        return now;
    }
}
