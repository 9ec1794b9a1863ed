package nvidb.core.operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import nvidb.core.api.NvidbException;

/**
 * Resolves what a user typed to one node (or lane) name: exact, then case-insensitive, then a
 * unique case-insensitive prefix. Ambiguous or unknown names are errors listing the candidates;
 * nothing ever falls back to "everything".
 */
final class NodeNames {
    private NodeNames() {
    }

    static String resolve(String typed, List<String> known, String what) {
        if (known.contains(typed)) {
            return typed;
        }
        String lower = typed.toLowerCase(Locale.ROOT);
        List<String> exact = new ArrayList<>();
        List<String> prefixed = new ArrayList<>();
        for (String name : known) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.equals(lower)) {
                exact.add(name);
            } else if (n.startsWith(lower)) {
                prefixed.add(name);
            }
        }
        if (exact.size() == 1) {
            return exact.getFirst();
        }
        if (exact.isEmpty() && prefixed.size() == 1) {
            return prefixed.getFirst();
        }
        List<String> candidates = exact.isEmpty() ? prefixed : exact;
        if (candidates.size() > 1) {
            throw NvidbException.usage(what + " '" + typed + "' is ambiguous: it matches " + String.join(", ", candidates)
                    + "; type more of the name");
        }
        throw NvidbException.notFound("unknown " + what + " '" + typed + "'; known " + what + "s: "
                + (known.isEmpty() ? "(none)" : String.join(", ", known)));
    }
}
