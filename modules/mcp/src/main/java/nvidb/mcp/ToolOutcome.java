package nvidb.mcp;

import nvidb.core.api.ErrorCode;

/**
 * What a tool answers: the document its CLI command prints with {@code --json}, a one-line
 * summary for the model to read, and, when the call ended badly, the error code and the CLI's
 * sentence (the document may still say what happened to each id of several).
 */
public record ToolOutcome(Object document, String summary, ErrorCode error, String message) {
    static ToolOutcome ok(Object document, String summary) {
        return new ToolOutcome(document, summary, null, null);
    }

    /** The document, and the error when {@code error} is not null (an operation on several ids). */
    static ToolOutcome of(Object document, String summary, ErrorCode error, String message) {
        return new ToolOutcome(document, summary, error, message);
    }
}
