package nvidb.core.app;

/**
 * What {@code queue status} shows, for every front end: the CLI's and the web's status (every
 * pending and running job, the recently finished, open alerts), or the TUI's screen, which also
 * lists up to {@code finished} finished jobs. The limits are the front end's; the reads are one.
 *
 * @param includeIgnored show ignored nodes too
 * @param queueHost      the queue host a client forwarded this to ({@code remote.host}), null for this machine's own queue
 * @param recent         how many of the newest jobs to look through for finished ones (at most 10 are shown)
 * @param alerts         how many open alerts to list
 * @param finished       how many of the newest finished jobs to list besides (the TUI's table), 0 for none
 */
public record StatusQuery(boolean includeIgnored, String queueHost, int recent, int alerts, int finished) {
    /** The status the CLI and the web show: the newest 20 jobs for the recently finished, 20 open alerts. */
    public static StatusQuery standard(boolean includeIgnored, String queueHost) {
        return new StatusQuery(includeIgnored, queueHost, 20, 20, 0);
    }
}
