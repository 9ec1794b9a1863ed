package nvidb.core.lab;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import nvidb.core.api.Job;
import nvidb.core.config.LabSettings;
import nvidb.core.store.LabRepository.GpuRun;

/**
 * Slurm's classic fair-share factor in its simplest form. Each user's usage is the GPU-seconds of
 * their jobs, each second weighted by {@code 2^(-age / half_life)} (a second used one half-life
 * ago counts half); their share is their {@code share:} weight over the weights of every user with
 * a job waiting or running. Among jobs that could start, the next comes from the user whose part of
 * everyone's usage is smallest against their share, then the higher priority, then the older job.
 *
 * <p>The order is made once per pass, from the usage the store recorded before it: a pass does not
 * re-rank users as it starts their jobs (a light user's jobs may take every free GPU of one pass;
 * what they run counts against them from the next).
 */
public final class FairShare {
    /** Runs that ended more than this many half-lives ago weigh under a millionth: they are not read. */
    private static final int HORIZON_HALF_LIVES = 20;
    /** The key of jobs from before schema 11, which recorded no user. */
    public static final String UNKNOWN_USER = nvidb.core.api.UserStanding.UNKNOWN;

    private FairShare() {
    }

    /** One user's standing: their weight and share, their decayed usage and its part of everyone's. */
    public record Standing(String user, double weight, double sharePercent, double usageGpuSeconds,
                           double usagePercent) {
        /** Usage over share: under 1, the user used less than their share; the smallest goes first. */
        public double factor() {
            return nvidb.core.api.UserStanding.factor(usagePercent, sharePercent);
        }
    }

    /** The user a job counts for. */
    public static String userOf(Job job) {
        return job.user() == null ? UNKNOWN_USER : job.user();
    }

    /** How far back {@link #usage} needs runs. */
    public static Instant horizon(Instant now, Duration halfLife) {
        return now.minus(halfLife.multipliedBy(HORIZON_HALF_LIVES));
    }

    /** Each user's decayed GPU-seconds at {@code now}, from the store's runs, inside the caller's read. */
    public static Map<String, Double> usage(nvidb.core.store.Store store, LabSettings lab, Instant now) {
        return usage(store.lab.gpuRunsSince(horizon(now, lab.halfLife())), now, lab.halfLife());
    }

    /**
     * Each user's decayed GPU-seconds at {@code now}: for a run of {@code g} GPUs from {@code s} to
     * {@code e} (now while it runs), {@code g · H/ln 2 · (2^(-(now-e)/H) − 2^(-(now-s)/H))}, the
     * integral of its GPUs' seconds weighted by age.
     */
    public static Map<String, Double> usage(Collection<GpuRun> runs, Instant now, Duration halfLife) {
        double h = halfLife.toMillis() / 1000.0;
        double scale = h / Math.log(2);
        Map<String, Double> out = new HashMap<>();
        for (GpuRun r : runs) {
            Instant end = r.finishedAt() == null || r.finishedAt().isAfter(now) ? now : r.finishedAt();
            Instant start = r.startedAt().isAfter(end) ? end : r.startedAt();
            double endAge = (now.toEpochMilli() - end.toEpochMilli()) / 1000.0;
            double startAge = (now.toEpochMilli() - start.toEpochMilli()) / 1000.0;
            double seconds = r.gpus() * scale * (Math.pow(2, -endAge / h) - Math.pow(2, -startAge / h));
            out.merge(r.user() == null ? UNKNOWN_USER : r.user(), seconds, Double::sum);
        }
        return out;
    }

    /**
     * The standing of every user with usage or a job waiting or running ({@code active}), by name.
     * Shares are parts of the active users' weights; a user with no job now gets the part they would
     * have beside them.
     */
    public static Map<String, Standing> standings(Map<String, Double> usage, Collection<String> active,
                                                  LabSettings lab) {
        double activeWeight = 0;
        for (String u : new java.util.TreeSet<>(active)) {
            activeWeight += lab.of(u).share();
        }
        double totalUsage = 0;
        for (double v : usage.values()) {
            totalUsage += v;
        }
        Map<String, Standing> out = new TreeMap<>();
        List<String> users = new ArrayList<>(usage.keySet());
        users.addAll(active);
        for (String u : users) {
            if (out.containsKey(u)) {
                continue;
            }
            double weight = lab.of(u).share();
            double all = active.contains(u) ? activeWeight : activeWeight + weight;
            double used = usage.getOrDefault(u, 0.0);
            out.put(u, new Standing(u, weight, all <= 0 ? 0 : 100 * weight / all, used,
                    totalUsage <= 0 ? 0 : 100 * used / totalUsage));
        }
        return out;
    }

    /**
     * {@code jobs} in fair share's order, each job's factor looked up once (not twice a comparison:
     * over 10,000 jobs that halves the pass's sorting, FairShareBenchmark).
     */
    public static List<Job> sorted(Collection<Job> jobs, Map<String, Standing> standings) {
        record Keyed(double factor, Job job) {
        }
        List<Keyed> keyed = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            Standing s = standings.get(userOf(j));
            keyed.add(new Keyed(s == null ? 0 : s.factor(), j));
        }
        keyed.sort((a, b) -> {
            int byFactor = Double.compare(a.factor(), b.factor());
            return byFactor != 0 ? byFactor : Job.DISPATCH_ORDER.compare(a.job(), b.job());
        });
        List<Job> out = new ArrayList<>(keyed.size());
        keyed.forEach(k -> out.add(k.job()));
        return out;
    }

    /** The free pool's order under fair share ({@link Job#fairShareOrder}) with these standings. */
    public static Comparator<Job> order(Map<String, Standing> standings) {
        return Job.fairShareOrder(j -> {
            Standing s = standings.get(userOf(j));
            return s == null ? 0 : s.factor();
        });
    }
}
