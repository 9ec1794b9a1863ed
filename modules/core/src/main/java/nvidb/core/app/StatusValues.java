package nvidb.core.app;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Keeper;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.Queue;

/**
 * {@code queue status} as values, for a front end that words or draws it itself (the CLI's text,
 * the TUI's screen): the reads {@link StatusReport} makes for the document, with the query's limits.
 *
 * @param active   pending and running jobs, oldest first
 * @param recent   finished jobs among the newest {@link StatusQuery#recent}, at most 10, newest first
 * @param finished the newest {@link StatusQuery#finished} finished jobs (none unless asked), newest first
 * @param alerts   the newest {@link StatusQuery#alerts} open alerts, and how many are open
 * @param users    each user's fair-share standing, what they run and what waits, and their limits
 */
public record StatusValues(Instant at, Queue.Info info, Instant lastTickAt, Instant lastBackupAt,
                           Optional<DaemonInfo> daemon, Keeper.State keeper, Map<String, Long> counts, List<Job> active,
                           List<Job> recent, List<Job> finished, List<NodeAdmin.NodeView> nodes,
                           List<LaneQueries.LaneView> lanes, JobQueries.AlertPage alerts,
                           List<nvidb.core.api.UserStanding> users) {
}
