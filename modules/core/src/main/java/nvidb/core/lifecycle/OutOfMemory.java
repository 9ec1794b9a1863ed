package nvidb.core.lifecycle;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import nvidb.core.api.AlertKind;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.Json;
import nvidb.core.api.Sizes;
import nvidb.core.api.TickSummary.AlertRef;
import nvidb.core.store.Store;

/**
 * How a failed job's end is classified, and the move of one that ran out of GPU memory: requeued
 * with a larger reservation while it has {@code --oom-retry} retries left and a GPU could hold
 * more, else failed with {@code failure: "oom"} and a {@code job_oom} alert.
 */
final class OutOfMemory {
    static final String OOM = "oom";
    /** Exit 137 is SIGKILL: the host's OOM killer (or a person's kill -9), not the GPU running out. */
    static final String KILLED = "killed";
    private static final int SIGKILL_EXIT = 128 + 9;

    private OutOfMemory() {
    }

    /** Why a failed job failed, where its end says: {@code oom}, {@code killed}, or null. */
    static String failure(Moves.Exit e) {
        if (e.oom() != null) {
            return OOM;
        }
        return e.exitCode() == SIGKILL_EXIT ? KILLED : null;
    }

    /** Whether this end requeues the job bigger: it ran out of GPU memory, may retry, and a GPU could hold more. */
    static boolean retries(Job job, Moves.Exit e) {
        Moves.OutOfMemory oom = e.oom();
        return e.exitCode() != 0 && oom != null && job.learned().oomRetries() < job.learned().oomRetry()
                && oom.raiseToMb() != null && oom.raiseToMb() > job.vramMb();
    }

    static AlertRef retry(Store store, Job job, Moves.OutOfMemory oom, Instant now) {
        long from = job.vramMb();
        long to = oom.raiseToMb();
        int n = job.learned().oomRetries() + 1;
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("kind", "oom_retry");
        source.put("from_mb", from);
        source.put("to_mb", to);
        String why = "ran out of GPU memory; requeued with " + Sizes.format(to) + " (was " + Sizes.format(from) + ")";
        store.jobs.update(job.id(), JobLifecycle.cleared().vram(to, Json.write(source)).oomRetries(n).lastError(why)
                .failure(null), now);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("from_mb", from);
        data.put("to_mb", to);
        data.put("oom_retry", n);
        data.put("line", oom.line());
        store.events.append(now, EventKind.JOB_REQUEUED, job.id(), job.node(), why, data);
        String title = JobLifecycle.label(job) + " " + why + ", out-of-memory retry " + n + " of " + job.learned().oomRetry();
        return JobLifecycle.raise(store, now, AlertKind.JOB_RETRIED, job, job.node(), title, oom.line());
    }

    /** The title of a {@code job_oom} alert: what happened, and why it was not retried bigger. */
    static String title(Job job, Moves.Exit e) {
        Moves.OutOfMemory oom = e.oom();
        String base = JobLifecycle.label(job) + " ran out of GPU memory (exit " + e.exitCode() + ", reserved "
                + Sizes.format(job.vramMb()) + ")";
        if (job.learned().oomRetry() == 0) {
            return base;
        }
        if (job.learned().oomRetries() >= job.learned().oomRetry()) {
            return base + "; its " + job.learned().oomRetry() + " out-of-memory retr"
                    + (job.learned().oomRetry() == 1 ? "y is" : "ies are") + " spent";
        }
        return base + "; not retried: no GPU could hold more (the largest holds " + Sizes.format(oom.largestMb())
                + " for it)";
    }

    /** The line that said so, then the end of its output. */
    static String detail(Moves.Exit e) {
        String tail = e.tail() == null || e.tail().isBlank() || e.tail().strip().equals(e.oom().line().strip()) ? ""
                : "\n\n" + e.tail();
        return e.oom().line() + tail;
    }
}
