package nvidb.core.view;

import nvidb.core.api.ErrorCode;

/** Every failure with {@code --json}: {@code {"ok": false, "error": "<sentence>", "code": "not_found"}}. */
public record ErrorView(boolean ok, String error, String code) {
    public static ErrorView of(ErrorCode code, String message) {
        return new ErrorView(false, message, code.label());
    }
}
