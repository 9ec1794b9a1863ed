package nvidb.core.api;

/**
 * One user of the queue as {@code queue status} shows them (issue 34): their fair-share weight and
 * share, their GPU time over the decaying window and its part of everyone's, what they run and
 * what waits, and their limits ({@code queue.users}; null: none).
 *
 * @param share         the {@code share:} weight
 * @param sharePercent  the weight's part of the weights of every user with a job waiting or running
 * @param usageGpuHours GPU-hours, each weighted by {@code 2^(-age / queue.fairshare_half_life)}
 * @param usagePercent  that usage's part of every user's
 */
public record UserStanding(String user, double share, double sharePercent, double usageGpuHours, double usagePercent,
                           int runningGpus, int running, int pending, Integer maxGpus, Integer maxRunning,
                           Integer maxPending, Long maxVramMb) {
    /** The user of jobs from before schema 11, which recorded none. */
    public static final String UNKNOWN = "-";

    /**
     * Fair share's factor: a user's part of everyone's usage over their share. Under 1, they used
     * less than their share; among jobs that could start, the smallest factor's go first.
     */
    public static double factor(double usagePercent, double sharePercent) {
        return sharePercent <= 0 ? Double.MAX_VALUE : usagePercent / sharePercent;
    }

    public double factor() {
        return factor(usagePercent, sharePercent);
    }
}
