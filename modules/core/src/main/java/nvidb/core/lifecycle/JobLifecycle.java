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
import nvidb.core.store.JobRepository.Changes;
import nvidb.core.store.JobRepository.Column;
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
            Changes reset = cleared().set(Column.EXIT_CODE, null).set(Column.FINISHED_AT, null)
                    .set(Column.GPU_MEM_MB, null).set(Column.LAST_ERROR, null).set(Column.HELD_REASON, null);
            if (job.lane() != null) {
                reset.set(Column.LANE_SEQ, store.lanes.nextSeq(job.lane()));
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
            store.jobs.update(id, Changes.of(Column.RUN_DIR, runDir), now);
            return reread(id);
        });
    }

    /** A staged job taken back from its runner forgets the run directory it was staged with. */
    public Job unstage(long id, String runDir, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.UNSTAGE);
            if (runDir.equals(job.runDir())) {
                store.jobs.update(id, Changes.of(Column.RUN_DIR, null), now);
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
            store.jobs.update(id, new Changes().set(Column.NODE, node).set(Column.GPU_IDS, gpuIds), now);
            return reread(id);
        });
    }

    /** The place's node refused the launch (nothing started there): the job may go anywhere again. */
    public Job unplace(long id, Instant now) {
        return store.db.write(() -> {
            current(id, Transition.UNSTAGE);
            store.jobs.update(id, new Changes().set(Column.NODE, null).set(Column.GPU_IDS, List.of()), now);
            return reread(id);
        });
    }

    // ------------------------------------------------------------------ running

    public Applied start(long id, Moves.Start s, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.START);
            // The start on the boot clock too, which --timeout counts on (TimeoutPass: the wall clock may jump).
            BootClock boot = BootClock.now().map(c -> c.at(s.startedAt() == null ? now : s.startedAt(), now)).orElse(null);
            store.jobs.update(id, new Changes().set(Column.STATE, JobState.RUNNING).set(Column.NODE, s.node())
                    .set(Column.GPU_IDS, s.gpuIds()).set(Column.REMOTE_PID, s.pid()).set(Column.REMOTE_PGID, s.pgid())
                    .set(Column.RUN_DIR, s.runDir()).set(Column.STARTED_AT, s.startedAt())
                    .set(Column.STARTED_BOOT_ID, boot == null ? null : boot.bootId())
                    .set(Column.STARTED_UPTIME_MS, boot == null ? null : boot.uptimeMs())
                    .set(Column.HEARTBEAT_AT, now).set(Column.ATTEMPT, s.attempt()).set(Column.LAST_ERROR, null)
                    .set(Column.EXIT_CODE, null).set(Column.FINISHED_AT, null), now);
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
            JobState state = e.exitCode() == 0 ? JobState.COMPLETED : JobState.FAILED;
            Changes changes = progress(job, e.status(), now).set(Column.STATE, state).set(Column.EXIT_CODE, e.exitCode())
                    .set(Column.FINISHED_AT, e.finishedAt()).set(Column.HEARTBEAT_AT, now);
            if (e.result() != null) {
                changes.set(Column.RESULT, e.result()); // decisions.md §7: a job that wrote none keeps a value a client set
            }
            if (state == JobState.FAILED) {
                String last = e.tail() == null ? "" : e.tail().strip().lines().reduce((a, b) -> b).orElse("");
                changes.set(Column.LAST_ERROR, "exit code " + e.exitCode()
                        + (last.isEmpty() ? "" : ": " + Texts.truncate(last, 200)));
            } else {
                changes.set(Column.LAST_ERROR, null);
            }
            store.jobs.update(id, changes, now);
            store.events.append(now, EventKind.JOB_FINISHED, id, job.node(), state.label() + " (exit " + e.exitCode() + ")",
                    Map.of("exit_code", e.exitCode(), "state", state.label()));
            AlertRef alert = state == JobState.FAILED
                    ? raise(now, AlertKind.JOB_FAILED, job, job.node(), label(job) + " failed with exit code " + e.exitCode(),
                            e.tail())
                    : null;
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
            Changes changes = progress(job, o.status(), now).set(Column.STATE, JobState.TIMEOUT)
                    .set(Column.FINISHED_AT, o.finishedAt())
                    .set(Column.LAST_ERROR, "exceeded max runtime of " + o.limitSeconds() + "s");
            if (o.byRunner()) {
                changes.set(Column.EXIT_CODE, o.exitCode()).set(Column.HEARTBEAT_AT, now);
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
        store.jobs.update(job.id(), cleared().set(Column.LAST_ERROR, "process vanished; retrying"), now);
        store.events.append(now, EventKind.JOB_REQUEUED, job.id(), job.node(), "process vanished; retrying",
                Map.of("attempt", job.attempt()));
        String title = label(job) + " vanished on " + job.node() + "; retrying (attempt " + (job.attempt() + 1)
                + " of " + (job.maxRetries() + 1) + ")";
        return new Applied(reread(job.id()), raise(now, AlertKind.JOB_RETRIED, job, job.node(), title, null));
    }

    private Applied lose(Job job, Instant now) {
        store.jobs.update(job.id(), new Changes().set(Column.STATE, JobState.LOST).set(Column.FINISHED_AT, now)
                .set(Column.LAST_ERROR, "process vanished without an exit code"), now);
        store.events.append(now, EventKind.JOB_LOST, job.id(), job.node(), "process vanished without an exit code", null);
        String title = label(job) + " was lost on " + job.node() + ": its process vanished without an exit code";
        return new Applied(reread(job.id()), raise(now, AlertKind.JOB_LOST, job, job.node(), title, null));
    }

    /** A pending job no GPU could ever hold fails at once. */
    public Applied reject(long id, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.REJECT);
            store.jobs.update(id, new Changes().set(Column.STATE, JobState.FAILED).set(Column.FINISHED_AT, now)
                    .set(Column.LAST_ERROR, reason), now);
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
            store.jobs.update(id, new Changes().set(Column.STATE, JobState.CANCELLED).set(Column.FINISHED_AT, now)
                    .set(Column.LAST_ERROR, "cancelled by user"), now);
            store.events.append(now, EventKind.JOB_CANCELLED, id, job.node(), "cancelled by user", null);
            return reread(id);
        });
    }

    // ------------------------------------------------------------------ holds

    /** A pending job waits for a person: it keeps its place and raises one alert per new reason. */
    public Applied hold(long id, String reason, Instant now) {
        return store.db.write(() -> {
            Job job = current(id, Transition.HOLD);
            store.jobs.update(id, Changes.of(Column.HELD_REASON, reason), now);
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
            store.jobs.update(id, Changes.of(Column.HELD_REASON, null), now);
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
            store.jobs.update(id, new Changes().set(Column.HELD_REASON, null).set(Column.DEPENDS_ON, kept), now);
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
            Changes changes = new Changes().set(Column.DEPENDS_ON, dependsOn).set(Column.DEPENDS_ANY, dependsAny);
            if (reread(id).held()) {
                current(id, Transition.RELEASE);
                changes.set(Column.HELD_REASON, null);
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
    private static Changes cleared() {
        return new Changes().set(Column.STATE, JobState.PENDING).set(Column.NODE, null)
                .set(Column.GPU_IDS, List.of()).set(Column.REMOTE_PID, null).set(Column.REMOTE_PGID, null)
                .set(Column.RUN_DIR, null).set(Column.STARTED_AT, null).set(Column.HEARTBEAT_AT, null)
                .set(Column.PROGRESS, null).set(Column.PROGRESS_AT, null);
    }

    private static Changes progress(Job job, String status, Instant now) {
        Changes c = new Changes();
        if (status != null && !status.equals(job.progress())) {
            c.set(Column.PROGRESS, status).set(Column.PROGRESS_AT, now);
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
