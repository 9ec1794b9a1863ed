/**
 * One open queue ({@link nvidb.core.api.Queue}): {@code QueueService} opens the store, keeps the
 * configured nodes recorded, makes the passes (a command's, the daemon's, and the one rule of
 * {@code tickAfterChange}: a live daemon makes the pass), and hands out each group of operations
 * (jobs, lanes, sweeps, nodes, backups) on the {@code ServiceContext} they share;
 * {@code HistoryService} reads what the GPUs and the queue looked like over time. It is the wiring
 * above the groups and below what opens it: the daemon, the doctor and {@code nvidb.core.access}.
 */
package nvidb.core.queue;
