package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.stream.Collectors;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;

/**
 * The exit code of commands that act on several jobs at once: unknown ids make it 3 (not
 * found), jobs in a state the action does not apply to make it 4 (conflict), else 0. The
 * per-job results are printed either way, so nothing done is hidden behind the error.
 */
final class Outcomes {
    record Item(long id, boolean done, String state) {
    }

    record Verdict(ErrorCode code, String message) {
        void into(ObjectNode o) {
            o.put("ok", code == null);
            if (code != null) {
                o.put("error", message);
                o.put("code", code.label());
            }
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

    static Verdict verdict(List<Item> items, String action) {
        List<Item> missing = items.stream().filter(i -> i.state() == null).toList();
        if (!missing.isEmpty()) {
            return new Verdict(ErrorCode.NOT_FOUND, "no such job: " + ids(missing));
        }
        List<Item> refused = items.stream().filter(i -> !i.done()).toList();
        if (!refused.isEmpty()) {
            return new Verdict(ErrorCode.CONFLICT, "cannot " + action + " " + refused.stream()
                    .map(i -> "job " + i.id() + " (" + i.state() + ")").collect(Collectors.joining(", ")));
        }
        return new Verdict(null, null);
    }

    private static String ids(List<Item> items) {
        return items.stream().map(i -> String.valueOf(i.id())).collect(Collectors.joining(", "));
    }
}
