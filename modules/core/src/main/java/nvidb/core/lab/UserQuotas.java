package nvidb.core.lab;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.Sizes;
import nvidb.core.config.LabSettings;

/**
 * Each user's limits of {@code queue.users} ({@code max_gpus}, {@code max_running},
 * {@code max_vram}) as one pass applies them, counted the way a sweep's {@code --max-parallel} is:
 * a job is under way while it runs, while it has a place and its launch is in progress, and while
 * it is staged with a lane runner. Read once per pass; a job the pass starts or stages is charged
 * at once, so the user's later jobs of the same pass see it.
 */
public final class UserQuotas {
    /** What one user holds now. */
    private static final class Held {
        final Set<Long> jobs = new HashSet<>();
        int gpus;
        long vramMb;
    }

    private final LabSettings lab;
    private final Map<String, Held> byUser = new HashMap<>();

    private UserQuotas(LabSettings lab) {
        this.lab = lab;
    }

    /** What each user holds, from the active jobs of this pass. */
    public static UserQuotas read(LabSettings lab, List<Job> pending, List<Job> running) {
        UserQuotas q = new UserQuotas(lab);
        if (!lab.anyLimits()) {
            return q;
        }
        for (Job j : running) {
            q.charge(j);
        }
        for (Job j : pending) {
            if (j.node() != null || (j.lane() != null && j.runDir() != null)) {
                q.charge(j);
            }
        }
        return q;
    }

    /** What a job reserves over all its GPUs. */
    static long vramOf(Job job) {
        return job.vramMb() * job.gpus();
    }

    /**
     * Why {@code job} may not start now, worded for {@code job show} ({@code quota: alice runs 4 of
     * 4 GPUs}), or empty when it may: its user has room under every limit, or it is already under way.
     */
    public Optional<String> refusal(Job job) {
        LabSettings.UserPolicy p = lab.of(job.user());
        if (!p.limits()) {
            return Optional.empty();
        }
        String user = FairShare.userOf(job);
        Held h = byUser.getOrDefault(user, new Held());
        if (h.jobs.contains(job.id())) {
            return Optional.empty();
        }
        if (p.maxRunning() != null && h.jobs.size() + 1 > p.maxRunning()) {
            return Optional.of("quota: " + user + " runs " + h.jobs.size() + " of " + p.maxRunning() + " jobs");
        }
        if (p.maxGpus() != null && job.gpus() > p.maxGpus()) {
            return Optional.of("quota: the job needs " + job.gpus() + " GPUs and " + user + " may hold " + p.maxGpus()
                    + " at once");
        }
        if (p.maxGpus() != null && h.gpus + job.gpus() > p.maxGpus()) {
            return Optional.of("quota: " + user + " runs " + h.gpus + " of " + p.maxGpus() + " GPUs");
        }
        if (p.maxVramMb() != null && vramOf(job) > p.maxVramMb()) {
            return Optional.of("quota: the job needs " + Sizes.format(vramOf(job)) + " of VRAM and " + user
                    + " may hold " + Sizes.format(p.maxVramMb()) + " at once");
        }
        if (p.maxVramMb() != null && h.vramMb + vramOf(job) > p.maxVramMb()) {
            return Optional.of("quota: " + user + " holds " + Sizes.format(h.vramMb) + " of " + Sizes.format(p.maxVramMb())
                    + " VRAM and the job needs " + Sizes.format(vramOf(job)));
        }
        return Optional.empty();
    }

    /** Counts {@code job} as under way from now on. */
    public void charge(Job job) {
        if (!lab.anyLimits()) {
            return;
        }
        Held h = byUser.computeIfAbsent(FairShare.userOf(job), k -> new Held());
        if (h.jobs.add(job.id())) {
            h.gpus += job.gpus();
            h.vramMb += vramOf(job);
        }
    }
}
