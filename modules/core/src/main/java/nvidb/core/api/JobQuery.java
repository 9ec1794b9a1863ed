package nvidb.core.api;

import java.util.Set;
import nvidb.core.api.JobState;

/**
 * Which jobs {@code job ls} lists.
 *
 * @param states empty means every state
 * @param node   a node name as typed (resolved by the service), or null
 * @param limit  the newest this many; 0 means all
 */
public record JobQuery(Set<JobState> states, boolean held, String node, String tag, int limit) {
    public JobQuery {
        states = states == null ? Set.of() : Set.copyOf(states);
    }
}
