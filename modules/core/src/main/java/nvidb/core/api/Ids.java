package nvidb.core.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import nvidb.core.api.NvidbException;

/** Job and alert ids as users type them: {@code 12}, {@code 1,2 3}. */
public final class Ids {
    private Ids() {
    }

    /** One id; anything but a positive integer is a usage error naming it. */
    public static long parse(String text) {
        String t = text == null ? "" : text.strip();
        try {
            long id = Long.parseLong(t);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the sentence below
        }
        throw NvidbException.usage("invalid id '" + text + "' (ids are positive whole numbers, e.g. 12)");
    }

    /** Each argument may itself be a comma list; empty parts are skipped. */
    public static List<Long> parseLists(Collection<String> args) {
        List<Long> ids = new ArrayList<>();
        if (args == null) {
            return ids;
        }
        for (String arg : args) {
            for (String part : arg.split(",")) {
                if (!part.isBlank()) {
                    ids.add(parse(part));
                }
            }
        }
        return ids;
    }

    /** An event cursor ({@code queue events --since ID}): an event id ≥ 0, the last_id of an earlier call. */
    public static long parseSince(String text) {
        try {
            long v = Long.parseLong(text.strip());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // the sentence below
        }
        throw NvidbException.usage("--since takes an event id ≥ 0 (the last_id of an earlier call), not '" + text + "'");
    }
}
