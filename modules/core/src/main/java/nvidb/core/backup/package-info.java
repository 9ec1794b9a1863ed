/**
 * Backups and restores of the queue database ({@link nvidb.core.api.Backups}): a copy made beside
 * its target, checked, synced and published under a name that never replaces a file
 * ({@code BackupFiles}), generated backups rotated, and a restore that refuses while anything keeps
 * the queue moving ({@code QueueActivity}: a daemon, its keeper, a pass in progress) and swaps the
 * content in through the store's {@code Snapshots}. It stands on {@code nvidb.core.operation} and
 * the store, config and keeper; the queue, the daemon's periodic backup and the doctor use it.
 */
package nvidb.core.backup;
