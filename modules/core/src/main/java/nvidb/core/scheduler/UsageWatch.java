package nvidb.core.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import nvidb.core.api.AlertKind;
import nvidb.core.api.EventKind;
import nvidb.core.api.Job;
import nvidb.core.api.Sizes;
import nvidb.core.api.TickSummary;
import nvidb.core.config.QueueSettings;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.store.Store;

/**
 * What each look at a running job teaches: its peak per-GPU memory and mean utilisation (kept for
 * {@code --vram auto} and shown by {@code job show}), and the two things someone should be told of,
 * once per job: use beyond the reservation ({@code job_overrun}: an event, and an alert unless
 * {@code queue.overrun_alert: false}) and GPUs idle for {@code queue.idle_after} ({@code job_idle}).
 * It also meters the job for {@code queue usage}: a look stands for the time since the node's
 * previous look (or the job's start, if later), at most {@link #MAX_LOOK_GAP}; over that time the
 * job drew its share of its GPUs' power ({@link Capacity.Sample#powerW}) and, when its GPUs' mean
 * utilisation was at or under {@code queue.idle_util}, held {@code gpus} idle GPUs.
 * Runs inside the pass's write transaction for the node.
 */
final class UsageWatch {
    /**
     * The longest time one look stands for. Passes come every few seconds while a daemon runs;
     * a longer gap (no daemon, the node unreachable) is not metered rather than guessed from one
     * sample at its end.
     */
    static final Duration MAX_LOOK_GAP = Duration.ofMinutes(10);

    private final Store store;
    private final QueueSettings.Learning learning;

    UsageWatch(Store store, QueueSettings.Learning learning) {
        this.store = store;
        this.learning = learning;
    }

    /** @param previousLook when the pass last reached this node (null: never) */
    void look(Job j, Capacity.Sample sample, Instant now, Instant previousLook, TickSummary.Builder summary) {
        if (sample == null) {
            return;
        }
        meter(j, sample, metered(j, now, previousLook));
        Job.Learned l = j.learned();
        Integer peak = l.peakVramMb();
        if (sample.peakGpuMb() != null && (peak == null || sample.peakGpuMb() > peak)) {
            peak = Math.toIntExact(sample.peakGpuMb());
        }
        double utilSum = l.utilSum();
        int samples = l.utilSamples();
        Instant idleSince = l.idleSince();
        if (sample.utilPercent() != null) {
            utilSum += sample.utilPercent();
            samples++;
            idleSince = sample.utilPercent() <= learning.idleUtilPercent() ? (idleSince == null ? now : idleSince) : null;
        }
        store.usage.look(j.id(), peak, utilSum, samples, idleSince);
        if (j.gpus() > 0) {
            overrun(j, sample, now, summary);
            idle(j, idleSince, now, summary);
        }
    }

    /** The seconds this look stands for: since the later of the previous look and the job's start, capped. */
    static double metered(Job j, Instant now, Instant previousLook) {
        Instant from = j.startedAt();
        if (previousLook != null && (from == null || previousLook.isAfter(from))) {
            from = previousLook;
        }
        if (from == null || !now.isAfter(from)) {
            return 0;
        }
        return Math.min(Duration.between(from, now).toMillis(), MAX_LOOK_GAP.toMillis()) / 1000.0;
    }

    private void meter(Job j, Capacity.Sample sample, double seconds) {
        if (seconds <= 0) {
            return;
        }
        Double joules = sample.powerW() == null ? null : sample.powerW() * seconds;
        boolean idle = sample.utilPercent() != null && sample.utilPercent() <= learning.idleUtilPercent();
        double idleGpuSeconds = idle ? j.gpus() * seconds : 0;
        if (joules != null || idleGpuSeconds > 0) {
            store.usage.meter(j.id(), joules, idleGpuSeconds);
        }
    }

    private void overrun(Job j, Capacity.Sample sample, Instant now, TickSummary.Builder summary) {
        if (sample.peakGpuMb() == null || j.learned().overrunAt() != null) {
            return;
        }
        long used = sample.peakGpuMb();
        if (used - j.vramMb() <= learning.overrunAllowanceMb(j.vramMb()) || !store.usage.markOverrun(j.id(), now)) {
            return;
        }
        String message = "uses " + Sizes.format(used) + " of GPU memory on one GPU; it reserved " + Sizes.format(j.vramMb());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("used_mb", used);
        data.put("vram_mb", j.vramMb());
        store.events.append(now, EventKind.JOB_OVERRUN, j.id(), j.node(), message, data);
        if (learning.overrunAlert()) {
            raise(j, AlertKind.JOB_OVERRUN, JobLifecycle.label(j) + " " + message + " (the budget charges what it uses)",
                    "Reserve more next time (--vram), or --vram auto to size it from its earlier runs.", now, summary);
        }
    }

    private void idle(Job j, Instant idleSince, Instant now, TickSummary.Builder summary) {
        int after = learning.idleAfterSeconds();
        if (after <= 0 || idleSince == null || j.learned().idleAlertedAt() != null
                || Duration.between(idleSince, now).toSeconds() < after || !store.usage.markIdleAlerted(j.id(), now)) {
            return;
        }
        String message = "its GPUs have been at or under " + percent(learning.idleUtilPercent()) + " utilisation for "
                + Duration.between(idleSince, now).toMinutes() + " min";
        store.events.append(now, EventKind.JOB_IDLE, j.id(), j.node(), message,
                Map.of("idle_since", nvidb.core.api.Times.iso(idleSince)));
        raise(j, AlertKind.JOB_IDLE, JobLifecycle.label(j) + " holds " + j.gpus() + " GPU(s) but " + message,
                "A job stuck before its GPU work, or done and not exiting; see its logs.", now, summary);
    }

    private void raise(Job j, AlertKind kind, String title, String detail, Instant now, TickSummary.Builder summary) {
        long id = store.alerts.raise(now, kind, j.id(), j.node(), title, detail);
        summary.alert(new TickSummary.AlertRef(id, kind.label(), title, j.id()));
    }

    private static String percent(double p) {
        return (p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p)) + " %";
    }
}
