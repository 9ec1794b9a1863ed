package nvidb.core.app;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.core.api.ErrorCode;
import nvidb.core.view.JobDocuments;

/**
 * The outcome of operations that act on several jobs at once (cancel, requeue, release). Every id
 * that can be acted on is; each id's outcome is reported ({@code results: [{id, ok, state, error,
 * code}]}); and the whole takes the most serious outcome's code: an unknown id makes it not found
 * (the caller named the wrong thing), else another account's job makes it forbidden, else a job in
 * a state the action does not apply to makes it a conflict.
 */
public final class Verdicts {
    /** The rule above in one line, for each front end's help. */
    public static final String RULE = "Every id that can be is acted on; exit 3 if any id is unknown, else 77 if any is"
            + " another account's, else 4 if any was refused.";

    private Verdicts() {
    }

    /**
     * One id's outcome. {@code state} is the job's state afterwards, null when there is no such
     * job; {@code refusal} says why a job that exists was not acted on (null: the default sentence).
     */
    public record Item(long id, boolean done, String state, String refusal, ErrorCode refusedAs) {
        public Item(long id, boolean done, String state, String refusal) {
            this(id, done, state, refusal, null);
        }

        public Item(long id, boolean done, String state) {
            this(id, done, state, null, null);
        }

        /** Null when done; else not found, forbidden (another account's job), or a conflict. */
        ErrorCode code() {
            return done ? null : state == null ? ErrorCode.NOT_FOUND : refusedAs != null ? refusedAs : ErrorCode.CONFLICT;
        }

        String error(String action) {
            if (done) {
                return null;
            }
            if (state == null) {
                return "job " + id + " not found";
            }
            return refusal != null ? refusal : "cannot " + action + " job " + id + " (" + state + ")";
        }
    }

    /** The whole's code (null: all acted on) and its sentence. */
    public record Verdict(ErrorCode code, String message) {
        public JobDocuments.Verdict view() {
            return new JobDocuments.Verdict(code == null, message, code == null ? null : code.label());
        }

        <D> Acted<D> with(D document) {
            return new Acted<>(document, code, message);
        }
    }

    /**
     * One id's entry of {@code results}: {@code id, ok, state}, and {@code error, code} when it was
     * not acted on. An operation's own result record adds its keys (cancelled, holds, …) after it.
     */
    public static JobDocuments.Item view(Item item, String action) {
        return new JobDocuments.Item(item.id(), item.done(), item.state(), item.error(action),
                item.done() ? null : item.code().label());
    }

    public static Verdict verdict(List<Item> items, String action) {
        List<Item> missing = items.stream().filter(i -> i.code() == ErrorCode.NOT_FOUND).toList();
        List<Item> forbidden = items.stream().filter(i -> i.code() == ErrorCode.FORBIDDEN).toList();
        List<Item> refused = items.stream().filter(i -> i.code() == ErrorCode.CONFLICT).toList();
        List<String> parts = new ArrayList<>();
        if (!missing.isEmpty()) {
            parts.add("no such job: " + missing.stream().map(i -> String.valueOf(i.id())).collect(Collectors.joining(", ")));
        }
        if (!forbidden.isEmpty()) {
            parts.add(forbidden.stream().map(i -> i.error(action)).collect(Collectors.joining("; ")));
        }
        if (!refused.isEmpty()) {
            parts.add(refused.stream().map(i -> i.error(action)).collect(Collectors.joining(", ")));
        }
        ErrorCode worst = !missing.isEmpty() ? ErrorCode.NOT_FOUND : !forbidden.isEmpty() ? ErrorCode.FORBIDDEN
                : !refused.isEmpty() ? ErrorCode.CONFLICT : null;
        return new Verdict(worst, worst == null ? null : String.join("; ", parts));
    }
}
