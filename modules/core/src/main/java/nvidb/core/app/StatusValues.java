package nvidb.core.app;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.Keeper;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.Queue;

/**
 * {@code queue status} as values, for a front end that words it itself (the CLI's text): what
 * {@link StatusReport}'s document holds.
 *
 * @param active pending and running jobs, oldest first
 * @param recent finished jobs among the newest {@link StatusQuery#recent}, at most 10, newest first
 * @param alerts the newest {@link StatusQuery#alerts} open alerts, and how many are open
 */
public record StatusValues(Queue.Info info, Instant lastTickAt, Instant lastBackupAt, Optional<DaemonInfo> daemon,
                           Keeper.State keeper, Map<String, Long> counts, List<Job> active, List<Job> recent,
                           List<NodeAdmin.NodeView> nodes, JobQueries.AlertPage alerts) {
}
