package nvidb.core.api;

/**
 * Every way a command can end badly, with its exit code ({@code decisions.md} §5) and the word
 * {@code --json} prints as {@code "code"}.
 */
public enum ErrorCode {
    /** A command could not do its work, or a waited-for job ended badly. */
    FAILED(1, "failed"),
    /** {@code job wait}: the timeout ran out with work still going. */
    WAIT_TIMEOUT(2, "timeout"),
    /** Unknown job, node, lane or alert. */
    NOT_FOUND(3, "not_found"),
    /** The scheduler lease is held, or the transition is illegal. */
    CONFLICT(4, "conflict"),
    /**
     * The caller may not act on the job: it is another account's and the caller is not one of
     * {@code queue.admins}. Exit 77 is {@code EX_NOPERM} of sysexits.h.
     */
    FORBIDDEN(77, "forbidden"),
    /**
     * A submit beyond the caller's {@code queue.users} limits: more waiting jobs than
     * {@code max_pending}, or one job bigger than the user may ever hold. Exit 75 is
     * {@code EX_TEMPFAIL} of sysexits.h: the same submit may pass once their jobs have run.
     */
    QUOTA(75, "quota"),
    /** Unknown option, bad size, bad id, malformed value, broken configuration. */
    USAGE(64, "usage"),
    /**
     * The queue is elsewhere and cannot be used: the queue host ({@code remote:}) could not be
     * reached, refused the login, has no usable nvidb, or the connection broke during the command.
     * Never a silent fall-back to this machine's queue.
     */
    UNAVAILABLE(69, "unavailable"),
    /** Ctrl-C. */
    INTERRUPTED(130, "interrupted");

    private final int exitCode;
    private final String label;

    ErrorCode(int exitCode, String label) {
        this.exitCode = exitCode;
        this.label = label;
    }

    public int exitCode() {
        return exitCode;
    }

    public String label() {
        return label;
    }
}
