package nvidb.core.view;

import java.util.List;
import java.util.Map;

/**
 * {@code queue status --summary --json}: the queue at a glance, without its job lists (a queue of
 * 10,000 jobs still answers in a few kilobytes): the counts by state, each node with its per-GPU
 * budgets, the open alerts. What an agent reads first; {@link StatusDocument} has the rest.
 */
public record StatusSummary(String generatedAt, String queueHost, String lastTickAt, QueueDocuments.Daemon daemon,
                            QueueDocuments.KeeperState keeper, Map<String, Long> counts, long held,
                            List<NodeView> nodes, List<AlertView.Listed> alerts, long openAlerts) {
}
