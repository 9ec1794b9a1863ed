package nvidb.core.app;

/**
 * What {@code queue status} shows: the CLI's and the web's status (every pending and running job),
 * or the TUI's snapshot, which also lists up to {@code finished} finished jobs.
 *
 * @param includeIgnored show ignored nodes too
 * @param queueHost      the queue host a client forwarded this to ({@code remote.host}), null for this machine's own queue
 * @param recent         how many of the newest jobs to look through for finished ones (at most 10 are shown)
 * @param alerts         how many open alerts to list
 */
public record StatusQuery(boolean includeIgnored, String queueHost, int recent, int alerts) {
    /** The status every front end shows: the newest 20 jobs for the recently finished, 20 open alerts. */
    public static StatusQuery standard(boolean includeIgnored, String queueHost) {
        return new StatusQuery(includeIgnored, queueHost, 20, 20);
    }
}
