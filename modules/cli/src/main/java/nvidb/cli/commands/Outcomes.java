package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;
import nvidb.core.view.JobDocuments;

/**
 * The outcome of commands that act on several jobs at once (cancel, requeue, release). Every id
 * that can be acted on is; each id's outcome is reported ({@code results: [{id, ok, state, error,
 * code}]}); and the command exits with the most serious outcome's code: an unknown id makes it 3
 * (not found, the caller named the wrong thing), else a job in a state the action does not apply
 * to makes it 4 (conflict), else 0. Nothing done is hidden behind the error.
 */
final class Outcomes {
    /** The rule above in one line of {@code --help}, for each command that follows it. */
    static final String RULE = "Every id that can be is acted on; exit 3 if any id is unknown, else 4 if any was refused.";

    /**
     * One id's outcome. {@code state} is the job's state afterwards, null when there is no such
     * job; {@code refusal} says why a job that exists was not acted on (null: the default sentence).
     */
    record Item(long id, boolean done, String state, String refusal) {
        Item(long id, boolean done, String state) {
            this(id, done, state, null);
        }

        ErrorCode code() {
            return done ? null : state == null ? ErrorCode.NOT_FOUND : ErrorCode.CONFLICT;
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

    record Verdict(ErrorCode code, String message) {
        JobDocuments.Verdict view() {
            return new JobDocuments.Verdict(code == null, message, code == null ? null : code.label());
        }

        int report(Output out) {
            if (code == null) {
                return 0;
            }
            if (!out.json()) {
                out.note("error: " + message);
            }
            return code.exitCode();
        }
    }

    private Outcomes() {
    }

    /**
     * One id's entry of {@code results}: {@code id, ok, state}, and {@code error, code} when it was
     * not acted on. A command's own result record adds its keys (cancelled, holds, …) after it.
     */
    static JobDocuments.Item view(Item item, String action) {
        return new JobDocuments.Item(item.id(), item.done(), item.state(), item.error(action),
                item.done() ? null : item.code().label());
    }

    static Verdict verdict(List<Item> items, String action) {
        List<Item> missing = items.stream().filter(i -> i.code() == ErrorCode.NOT_FOUND).toList();
        List<Item> refused = items.stream().filter(i -> i.code() == ErrorCode.CONFLICT).toList();
        List<String> parts = new ArrayList<>();
        if (!missing.isEmpty()) {
            parts.add("no such job: " + missing.stream().map(i -> String.valueOf(i.id())).collect(Collectors.joining(", ")));
        }
        if (!refused.isEmpty()) {
            parts.add(refused.stream().map(i -> i.error(action)).collect(Collectors.joining(", ")));
        }
        ErrorCode worst = !missing.isEmpty() ? ErrorCode.NOT_FOUND : !refused.isEmpty() ? ErrorCode.CONFLICT : null;
        return new Verdict(worst, worst == null ? null : String.join("; ", parts));
    }
}
