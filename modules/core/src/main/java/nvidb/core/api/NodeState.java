package nvidb.core.api;

import java.util.Locale;

/** Whether a node answered its last probe; {@code unknown} until the first one. */
public enum NodeState {
    UNKNOWN, UP, DOWN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state stored as {@code label}; anything else (a newer version's word) reads as unknown. */
    public static NodeState fromLabel(String label) {
        for (NodeState s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
