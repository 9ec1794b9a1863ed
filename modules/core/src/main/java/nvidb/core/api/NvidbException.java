package nvidb.core.api;

import java.util.Objects;

/**
 * The one exception nvidb reports to a user. The message is a sentence for a person: what was
 * wrong and, where it helps, what would be right.
 */
public final class NvidbException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public NvidbException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public NvidbException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    public ErrorCode code() {
        return code;
    }

    public static NvidbException usage(String message) {
        return new NvidbException(ErrorCode.USAGE, message);
    }

    public static NvidbException notFound(String message) {
        return new NvidbException(ErrorCode.NOT_FOUND, message);
    }

    public static NvidbException forbidden(String message) {
        return new NvidbException(ErrorCode.FORBIDDEN, message);
    }

    public static NvidbException quota(String message) {
        return new NvidbException(ErrorCode.QUOTA, message);
    }

    public static NvidbException conflict(String message) {
        return new NvidbException(ErrorCode.CONFLICT, message);
    }

    public static NvidbException failed(String message) {
        return new NvidbException(ErrorCode.FAILED, message);
    }

    /** The thread was interrupted (Ctrl-C, SIGTERM): the work stopped where it was. */
    public static NvidbException interrupted() {
        return new NvidbException(ErrorCode.INTERRUPTED, "interrupted");
    }
}
