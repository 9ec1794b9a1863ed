package nvidb.core.scheduler;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.store.Store;
import nvidb.core.store.SweepRepository;

/**
 * A sweep's {@code --max-parallel K}: never more than K of its runs under way at once. The one
 * rule the lane staging pass, the lane dispatch pass and the free pool's dispatch share, read once
 * per pass (passes take turns under the scheduler lease, so two clients never both count).
 *
 * <p>A run is under way while it runs, while it has a place and its launch is in progress, and
 * while it is staged with a lane runner (a pending lane job with a run directory): a runner starts
 * a staged job without asking, so a staged run holds its slot until the job ends. A job a pass
 * starts or stages is charged at once, so later jobs of the same pass see it.
 */
final class SweepLimits {
    private record Sweep(long id, int limit, Set<Long> underWay) {
    }

    private final Map<Long, Sweep> byJob = new HashMap<>();

    private SweepLimits() {
    }

    /** No sweep limits anything. */
    static SweepLimits none() {
        return new SweepLimits();
    }

    /** The limits of the sweeps with one, and their runs under way, from the active jobs of this pass. */
    static SweepLimits read(Store store, List<Job> pending, List<Job> running) {
        SweepLimits limits = new SweepLimits();
        List<SweepRepository.Limited> rows = store.db.read(store.sweeps::limitedActive);
        if (rows.isEmpty()) {
            return limits;
        }
        Map<Long, Sweep> sweeps = new HashMap<>();
        for (SweepRepository.Limited row : rows) {
            Sweep s = sweeps.computeIfAbsent(row.sweepId(), k -> new Sweep(row.sweepId(), row.maxParallel(), new HashSet<>()));
            limits.byJob.put(row.jobId(), s);
        }
        for (Job j : running) {
            limits.charge(j);
        }
        for (Job j : pending) {
            if (j.node() != null || (j.lane() != null && j.runDir() != null)) {
                limits.charge(j);
            }
        }
        return limits;
    }

    /** Whether {@code job} may start (or be staged) now: it is in no limited sweep, already under way, or its sweep has room. */
    boolean admits(Job job) {
        Sweep s = byJob.get(job.id());
        return s == null || s.underWay().contains(job.id()) || s.underWay().size() < s.limit();
    }

    /** Why {@code job} may not start now ({@code sweep 3 runs 4 of 4 at once}), or null when it may. */
    String refusal(Job job) {
        if (admits(job)) {
            return null;
        }
        Sweep s = byJob.get(job.id());
        return "sweep " + s.id() + " runs " + s.underWay().size() + " of " + s.limit() + " at once (--max-parallel)";
    }

    /** Counts {@code job} as under way from now on. */
    void charge(Job job) {
        Sweep s = byJob.get(job.id());
        if (s != null) {
            s.underWay().add(job.id());
        }
    }
}
