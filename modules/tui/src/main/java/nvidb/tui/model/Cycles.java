package nvidb.tui.model;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** Small helpers the model's modes and lists share. */
public final class Cycles {
    private Cycles() {
    }

    /** The constant after {@code e}, the first after the last: what a key that goes round does. */
    static <E extends Enum<E>> E next(E e) {
        E[] all = e.getDeclaringClass().getEnumConstants();
        return all[(e.ordinal() + 1) % all.length];
    }

    /** The word the screen shows for a mode. */
    static String label(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** The index of the first element that matches, or -1. */
    public static <T> int indexOf(List<T> list, Predicate<T> match) {
        for (int i = 0; i < list.size(); i++) {
            if (match.test(list.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
