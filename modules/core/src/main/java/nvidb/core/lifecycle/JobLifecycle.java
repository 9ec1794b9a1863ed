package nvidb.core.lifecycle;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import nvidb.core.api.AlertKind;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sizes;
import nvidb.core.api.TickSummary.AlertRef;
import nvidb.core.store.JobChanges;
import nvidb.core.store.JobRepository;
import nvidb.core.store.Store;
import nvidb.core.util.Texts;
import nvidb.core.util.BootClock;

/**
 * The one place a job's state changes. Each move reads the job, checks it against
 * {@link Transition}, and writes the row, its event and its alert in one transaction (joining
 * the caller's when there is one). An illegal move is refused with a conflict (exit 4) and writes
 * nothing, so a caller may catch the refusal and go on with its own transaction intact.
 */
public final class JobLifecycle {
    /** What a move left behind: the job as it is now, and the alert it raised (or null). */
    public record Applied(Job job, AlertRef alert) {
    }

    private final Store store;
    private final LaunchRecords launches;

    public JobLifecycle(Store store) {
        this.store = store;
        this.launches = new LaunchRecords(store);
    }

    /** What a launch leaves on the record that is no move of the job's state. */
    public LaunchRecords launches() {
        return launches;
    }

    /**
     * Runs a move a pass decided on from what it read a moment ago. Another client may have
     * cancelled, settled or purged the job since; then there is nothing to do and this is null.
     */
    public static <T> T ifStillLegal(Supplier<T> move) {
        try {
            return move.get();
        } catch (NvidbException e) {
            if (e.code() == ErrorCode.CONFLICT || e.code() == ErrorCode.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------ entering the queue

    /**
     * A new pending job; returns its id (not the job read back: a sweep inserts thousands at once).
     * {@code label} is what its event says (its name, or its command).
     */
    public long submit(JobRepository.NewJob job, String label, Instant now) {
        return store.db.write(() -> {
            long id = store.jobs.insert(job, now);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("gpus", job.gpus());
            data.put("vram_mb", job.vramMb());
            data.put("node", job.nodeConstraint());
            data.put("lane", job.lane());
            data.put("submitter", job.submitter());
            store.events.append(now, EventKind.JOB_SUBMITTED, id, job.nodeConstraint(), label, data);
            return id;
        });
    }

    /** A finished job goes back to pending, as new; a lane job goes to its lane's tail (decisions.md §8). */
    public Job requeue(long id, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.REQUEUE);
            JobChanges reset = cleared().exitCode(null).finishedAt(null).gpuMemMb(null).lastError(null).heldReason(null)
                    .failure(null);
            if (job.lane() != null) {
                reset.laneSeq(store.lanes.nextSeq(job.lane()));
            }
            store.jobs.update(id, reset, now);
            store.events.append(now, EventKind.JOB_REQUEUED, id, null, "requeued", null);
            return reread(id);
        });
    }

    // ------------------------------------------------------------------ lane runner hand-over

    /** Records the run directory a lane job's spec is handed over with, before the hand-over. */
    public Job stage(long id, String runDir, Instant now) {
        return store.db.write(() -> {
            current(id, Transition.STAGE);
            store.jobs.update(id, new JobChanges().runDir(runDir), now);
            return reread(id);
        });
    }

    /** A staged job taken back from its runner forgets the run directory it was staged with. */
    public Job unstage(long id, String runDir, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.UNSTAGE);
            if (runDir.equals(job.runDir())) {
                store.jobs.update(id, new JobChanges().runDir(null), now);
            }
            return reread(id);
        });
    }

    /**
     * A pool job's place is recorded before its launch round trip: if the client dies after the
     * node started it, the next pass goes back to that place (where the launch adopts the attempt)
     * instead of placing the job again somewhere else.
     */
    public Job place(long id, String node, List<Integer> gpuIds, Instant now) {
        return store.db.write(() -> {
            current(id, Transition.STAGE);
            store.jobs.update(id, new JobChanges().node(node).gpuIds(gpuIds), now);
            return reread(id);
        });
    }

    /** The place's node refused the launch (nothing started there): the job may go anywhere again. */
    public Job unplace(long id, Instant now) {
        return store.db.write(() -> {
            current(id, Transition.UNSTAGE);
            store.jobs.update(id, new JobChanges().node(null).gpuIds(List.of()), now);
            return reread(id);
        });
    }

    // ------------------------------------------------------------------ running

    public Applied start(long id, Moves.Start s, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.START);
            // The start on the boot clock too, which --timeout counts on (TimeoutPass: the wall clock may jump).
            BootClock boot = BootClock.now().map(c -> c.at(s.startedAt() == null ? now : s.startedAt(), now)).orElse(null);
            store.jobs.update(id, new JobChanges().state(JobState.RUNNING).node(s.node()).gpuIds(s.gpuIds())
                    .remotePid(s.pid()).remotePgid(s.pgid()).runDir(s.runDir()).startedAt(s.startedAt()).startedOn(boot)
                    .heartbeatAt(now).attempt(s.attempt()).lastError(null).exitCode(null).finishedAt(null), now);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("pid", s.pid());
            data.put("gpu_ids", s.gpuIds());
            data.put("vram_mb", job.vramMb());
            data.put("vram", Sizes.format(job.vramMb()));
            String message;
            if (s.starter() instanceof Moves.ByRunner r) {
                data.put("lane", r.lane());
                data.put("runner", true);
                message = "pid " + s.pid() + " on GPU " + String.join(",", s.gpuIds().stream().map(String::valueOf)
                        .toList()) + " (lane " + r.lane() + ")";
            } else {
                data.put("adopted", ((Moves.Launched) s.starter()).adopted());
                message = "pid " + s.pid() + " on GPU " + (s.gpuIds().isEmpty() ? "-" : s.gpuIds().toString());
            }
            store.events.append(now, EventKind.JOB_STARTED, id, s.node(), message, data);
            return new Applied(reread(id), null);
        });
    }

    /** The job's exit code is known: completed on 0, else failed with an alert carrying its output's end. */
    public Applied finish(long id, Moves.Exit e, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.FINISH);
            if (OutOfMemory.retries(job, e)) {
                current(id, Transition.OOM_RETRY);
                AlertRef retried = OutOfMemory.retry(store, job, e.oom(), now);
                return new Applied(reread(id), retried);
            }
            JobState state = e.exitCode() == 0 ? JobState.COMPLETED : JobState.FAILED;
            String failure = state == JobState.FAILED ? OutOfMemory.failure(e) : null;
            JobChanges changes = progress(job, e.status(), now).state(state).exitCode(e.exitCode())
                    .finishedAt(e.finishedAt()).heartbeatAt(now);
            if (e.result() != null) {
                changes.result(e.result()); // decisions.md §7: a job that wrote none keeps a value a client set
            }
            if (state == JobState.FAILED) {
                String last = e.tail() == null ? "" : e.tail().strip().lines().reduce((a, b) -> b).orElse("");
                changes.lastError("exit code " + e.exitCode()
                        + (last.isEmpty() ? "" : ": " + Texts.truncate(last, 200)));
            } else {
                changes.lastError(null);
            }
            store.jobs.update(id, changes.failure(failure), now);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("exit_code", e.exitCode());
            data.put("state", state.label());
            if (failure != null) {
                data.put("failure", failure);
            }
            store.events.append(now, EventKind.JOB_FINISHED, id, job.node(), state.label() + " (exit " + e.exitCode() + ")"
                    + (failure == null ? "" : ", " + failure), data);
            AlertRef alert = state != JobState.FAILED ? null
                    : OutOfMemory.OOM.equals(failure) ? raise(now, AlertKind.JOB_OOM, job, job.node(),
                            OutOfMemory.title(job, e), OutOfMemory.detail(e))
                    : raise(now, AlertKind.JOB_FAILED, job, job.node(), label(job) + " failed with exit code " + e.exitCode()
                            + (failure == null ? "" : " (" + failure + ")"), e.tail());
            return new Applied(reread(id), alert);
        });
    }

    /** The job overran its {@code --timeout} and was stopped (or is owed a kill). */
    public Applied timeOut(long id, Moves.Overrun o, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.TIME_OUT);
            if (o.orphanReason() != null) {
                owesKill(job, o.orphanReason(), now);
            }
            JobChanges changes = progress(job, o.status(), now).state(JobState.TIMEOUT).finishedAt(o.finishedAt())
                    .lastError("exceeded max runtime of " + o.limitSeconds() + "s");
            if (o.byRunner()) {
                changes.exitCode(o.exitCode()).heartbeatAt(now);
            }
            store.jobs.update(id, changes, now);
            store.events.append(now, EventKind.JOB_TIMEOUT, id, job.node(), "killed after " + o.limitSeconds() + "s",
                    o.byRunner() ? Map.of("runner", true) : null);
            String title = label(job) + " killed after " + o.limitSeconds() + "s (limit " + o.limitSeconds() + "s)";
            String detail = o.tail() == null || o.tail().isBlank() ? null : o.tail();
            return new Applied(reread(id), raise(now, AlertKind.JOB_TIMEOUT, job, job.node(), title, detail));
        });
    }

    /**
     * A running job's process is gone without an exit code: it is retried while it has retries
     * left ({@link Transition#RETRY}), else lost.
     */
    public Applied vanished(long id, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.LOSE);
            return job.maxRetries() > 0 && job.attempt() <= job.maxRetries() ? retry(job, now) : lose(job, now);
        });
    }

    private Applied retry(Job job, Instant now) {
        store.jobs.update(job.id(), cleared().lastError("process vanished; retrying"), now);
        store.events.append(now, EventKind.JOB_REQUEUED, job.id(), job.node(), "process vanished; retrying",
                Map.of("attempt", job.attempt()));
        String title = label(job) + " vanished on " + job.node() + "; retrying (attempt " + (job.attempt() + 1)
                + " of " + (job.maxRetries() + 1) + ")";
        return new Applied(reread(job.id()), raise(now, AlertKind.JOB_RETRIED, job, job.node(), title, null));
    }

    private Applied lose(Job job, Instant now) {
        store.jobs.update(job.id(), new JobChanges().state(JobState.LOST).finishedAt(now)
                .lastError("process vanished without an exit code"), now);
        store.events.append(now, EventKind.JOB_LOST, job.id(), job.node(), "process vanished without an exit code", null);
        String title = label(job) + " was lost on " + job.node() + ": its process vanished without an exit code";
        return new Applied(reread(job.id()), raise(now, AlertKind.JOB_LOST, job, job.node(), title, null));
    }

    /** A pending job no GPU could ever hold fails at once. */
    public Applied reject(long id, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.REJECT);
            store.jobs.update(id, new JobChanges().state(JobState.FAILED).finishedAt(now).lastError(reason), now);
            store.events.append(now, EventKind.JOB_FAILED, id, null, reason, null);
            String title = label(job) + " can never run: " + reason;
            return new Applied(reread(id), raise(now, AlertKind.JOB_UNSCHEDULABLE, job, null, title, reason));
        });
    }

    /**
     * A person cancels a pending or running job. A running job's kill is the caller's to send
     * first; when it could not be delivered, {@code orphanReason} records a kill obligation.
     */
    public Job cancel(long id, String orphanReason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.CANCEL);
            if (orphanReason != null) {
                owesKill(job, orphanReason, now);
            }
            store.jobs.update(id, new JobChanges().state(JobState.CANCELLED).finishedAt(now)
                    .lastError("cancelled by user"), now);
            store.events.append(now, EventKind.JOB_CANCELLED, id, job.node(), "cancelled by user", null);
            return reread(id);
        });
    }

    // ------------------------------------------------------------------ holds

    /** A pending job waits for a person: it keeps its place and raises one alert per new reason. */
    public Applied hold(long id, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.HOLD);
            store.jobs.update(id, new JobChanges().heldReason(reason), now);
            store.events.append(now, EventKind.JOB_HELD, id, null, reason, Map.of("reason", reason));
            String title = label(job) + " is held: " + reason;
            String detail = "It stays pending and keeps its place. Release it with `nvidb job release " + id
                    + "`, repoint it with `nvidb job edit " + id + " --add-after ID`, or cancel it with `nvidb job cancel "
                    + id + "`.";
            return new Applied(reread(id), raise(now, AlertKind.JOB_HELD, job, null, title, detail));
        });
    }

    /** The reason for a hold went away by itself (a pass saw it): the job runs when its turn comes. */
    public Job unhold(long id, Instant now) {
        return store.db.write(() -> {
            current(id, Transition.RELEASE);
            store.jobs.update(id, new JobChanges().heldReason(null), now);
            store.events.append(now, EventKind.JOB_UNHELD, id, null, "no longer held", null);
            return reread(id);
        });
    }

    /**
     * A person releases a held job, dropping the {@code --after} dependencies that can never
     * complete ({@code dead}); the others stay.
     */
    public Job release(long id, List<Long> dead, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.RELEASE);
            List<Long> kept = new java.util.ArrayList<>(job.dependsOn());
            kept.removeAll(dead);
            store.jobs.update(id, new JobChanges().heldReason(null).dependsOn(kept), now);
            store.events.append(now, EventKind.JOB_RELEASED, id, null, reason, Map.of("dropped", dead));
            return reread(id);
        });
    }

    /**
     * A person repoints a job's dependencies ({@code job edit}). A held job is released by it, as
     * a {@link Transition#RELEASE}: the next pass holds it again if a new prerequisite failed too.
     */
    public Job repoint(long id, List<Long> dependsOn, List<Long> dependsAny, Instant now) {
        return store.db.write(() -> {
            JobChanges changes = new JobChanges().dependsOn(dependsOn).dependsAny(dependsAny);
            if (reread(id).held()) {
                current(id, Transition.RELEASE);
                changes.heldReason(null);
            }
            store.jobs.update(id, changes, now);
            return reread(id);
        });
    }

    /** "job 12 (train)": how alerts name a job. */
    public static String label(Job job) {
        return "job " + job.id() + (job.name().isEmpty() ? "" : " (" + job.name() + ")");
    }

    // ------------------------------------------------------------------ helpers

    private Job current(long id, Transition t) {
        Job job = store.jobs.find(id).orElseThrow(() -> NvidbException.notFound("job " + id + " not found"));
        if (!t.allows(job)) {
            throw NvidbException.conflict(t.refusal(job));
        }
        return job;
    }

    private Job reread(long id) {
        return store.jobs.find(id).orElseThrow();
    }

    /** The placement and progress of a run, cleared when a job goes back to pending. */
    static JobChanges cleared() {
        return new JobChanges().state(JobState.PENDING).node(null).gpuIds(List.of()).remotePid(null).remotePgid(null)
                .runDir(null).startedAt(null).heartbeatAt(null).progress(null, null);
    }

    private static JobChanges progress(Job job, String status, Instant now) {
        JobChanges c = new JobChanges();
        if (status != null && !status.equals(job.progress())) {
            c.progress(status, now);
        }
        return c;
    }

    private void owesKill(Job job, String reason, Instant now) {
        if (job.node() != null && job.remotePid() != null && job.runDir() != null) {
            store.orphans().add(job.id(), job.node(), job.runDir(), job.remotePid(), job.remotePgid(), reason, now);
        }
    }

    private AlertRef raise(Instant now, AlertKind kind, Job job, String node, String title, String detail) {
        return raise(store, now, kind, job, node, title, detail);
    }

    static AlertRef raise(Store store, Instant now, AlertKind kind, Job job, String node, String title, String detail) {
        long alertId = store.alerts.raise(now, kind, job.id(), node, title, detail);
        return new AlertRef(alertId, kind.label(), title, job.id());
    }
}
