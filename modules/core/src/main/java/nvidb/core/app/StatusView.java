package nvidb.core.app;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.Queue;

/**
 * The status as values, for a front end that draws it (the TUI's screen, the CLI's table) rather
 * than print its document: the same reads {@link StatusReport} makes for {@code queue status
 * --json}, with the query's limits.
 *
 * @param active   pending and running jobs, newest first
 * @param recent   finished jobs among the newest {@link StatusQuery#recent()}, at most 10, newest first
 * @param finished the newest {@link StatusQuery#finished()} finished jobs (none unless asked)
 */
public record StatusView(Instant at, Queue.Info info, Instant lastTickAt, Instant lastBackupAt,
                         Map<String, Long> counts, List<Job> active, List<Job> recent, List<Job> finished,
                         List<NodeAdmin.NodeView> nodes, List<LaneQueries.LaneView> lanes,
                         JobQueries.AlertPage alerts) {
}
