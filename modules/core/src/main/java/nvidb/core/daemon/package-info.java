/**
 * The queue daemon ({@link nvidb.core.api.Daemon}): {@code DaemonLoop} makes a pass, then waits
 * until its interval runs out, another process commits to the database ({@code ChangeWatch} tells
 * when to look) or a lane needs its next job staged soon ({@code LaneFollowUp}); it reads the
 * configuration again when its files change ({@code ConfigStamp}) and takes the periodic backups
 * ({@code PeriodicBackup}). It stands on the queue it opens ({@code nvidb.core.queue}) and the
 * store's daemon registration; only {@code nvidb.core.access} starts it.
 */
package nvidb.core.daemon;
