package nvidb.core.app;

import nvidb.core.api.ErrorCode;

/**
 * What an operation on several things at once (cancel, requeue, ack) did: its document, and the
 * most serious outcome among them ({@code code} null when every one was acted on). A front end
 * turns the code into its own answer (an exit code, an HTTP status, a tool error); nothing done is
 * hidden behind it.
 */
public record Acted<D>(D document, ErrorCode code, String message) {
    public boolean ok() {
        return code == null;
    }
}
