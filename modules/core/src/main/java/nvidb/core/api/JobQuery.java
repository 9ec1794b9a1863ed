package nvidb.core.api;

import java.util.Set;
import nvidb.core.api.JobState;

/**
 * Which jobs {@code job ls} lists.
 *
 * @param states empty means every state
 * @param node   a node name as typed (resolved by the service), or null
 * @param sweep  only the runs of this sweep, or null
 * @param limit  the newest this many; 0 means all
 */
public record JobQuery(Set<JobState> states, boolean held, String node, String tag, Long sweep, int limit) {
    public JobQuery {
        states = states == null ? Set.of() : Set.copyOf(states);
    }

    /** Any sweep's jobs and none's. */
    public JobQuery(Set<JobState> states, boolean held, String node, String tag, int limit) {
        this(states, held, node, tag, null, limit);
    }
}
