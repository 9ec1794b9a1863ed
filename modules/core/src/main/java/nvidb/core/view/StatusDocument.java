package nvidb.core.view;

import java.util.List;
import java.util.Map;

/**
 * {@code queue status --json}: the one status document, built in one place (the application's
 * {@code status} operation) for the CLI, the web and {@code /metrics}. The held and active jobs are
 * read while the document is written ({@link JobStream}), oldest first, so a big queue's status
 * never holds every pending job. {@code users} is each user's fair-share standing and limits.
 */
public record StatusDocument(String generatedAt, String dbPath, String queueHost, String lastTickAt,
                             String lastBackupAt, QueueDocuments.TickLock tickLock, QueueDocuments.Daemon daemon,
                             QueueDocuments.KeeperState keeper, QueueDocuments.Settings settings,
                             Map<String, Long> counts, JobStream held, List<NodeView> nodes,
                             List<LaneView.Detail> lanes, JobStream jobs, List<JobView> recent,
                             List<AlertView.Listed> alerts, long openAlerts, long pendingReaps,
                             List<UserView> users) {
}
