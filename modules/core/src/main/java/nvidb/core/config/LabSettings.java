package nvidb.core.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A lab of several people on one queue (issue 34): each user's limits and fair-share weight from
 * {@code queue.users}, and how fair share orders the free pool.
 *
 * @param defaults  the {@code default:} entry, for every user without one of their own
 * @param users     the per-user entries, each already completed from {@code default:}
 * @param fairshare {@code queue.fairshare}: false keeps the plain order (priority, then age)
 * @param halfLife  {@code queue.fairshare_half_life}: GPU-seconds this old count half
 */
public record LabSettings(UserPolicy defaults, Map<String, UserPolicy> users, boolean fairshare, Duration halfLife) {
    public static final Duration DEFAULT_HALF_LIFE = Duration.ofDays(7);
    public static final LabSettings DEFAULTS = new LabSettings(UserPolicy.UNLIMITED, Map.of(), true, DEFAULT_HALF_LIFE);

    public LabSettings {
        Objects.requireNonNull(defaults, "defaults");
        users = Map.copyOf(users);
        Objects.requireNonNull(halfLife, "halfLife");
    }

    /**
     * One user's limits; null is no limit.
     *
     * @param maxGpus    GPUs their jobs hold at once
     * @param maxRunning jobs of theirs under way at once
     * @param maxPending jobs of theirs waiting at once: a submit beyond it is refused
     * @param maxVramMb  GPU memory their jobs reserve at once, summed over every GPU
     * @param share      fair-share weight (default 1)
     */
    public record UserPolicy(Integer maxGpus, Integer maxRunning, Integer maxPending, Long maxVramMb, double share) {
        public static final UserPolicy UNLIMITED = new UserPolicy(null, null, null, null, 1);

        /** Whether any limit applies (the share is a weight, not a limit). */
        public boolean limits() {
            return maxGpus != null || maxRunning != null || maxPending != null || maxVramMb != null;
        }
    }

    /** The policy of {@code user}: their own entry, else {@code default:}. */
    public UserPolicy of(String user) {
        UserPolicy own = user == null ? null : users.get(user);
        return own != null ? own : defaults;
    }

    /** Whether any user has a limit (a pass then counts what each user holds). */
    public boolean anyLimits() {
        return defaults.limits() || users.values().stream().anyMatch(UserPolicy::limits);
    }
}
