package nvidb.tui.model;

import java.util.Comparator;
import java.util.function.Function;
import nvidb.core.api.Job;

/**
 * What the job table is sorted by; {@code s} goes round them, {@code S} reverses, a click on a
 * column heading picks that column. {@code QUEUE} is dispatch order (see {@link DispatchOrder}).
 */
public enum SortKey {
    QUEUE, ID, STATE, PRI, NAME, NODE, VRAM, USED, TIME;

    public String label() {
        return Cycles.label(this);
    }

    public SortKey next() {
        return Cycles.next(this);
    }

    /** The order within this key; null for {@code QUEUE}, which needs the whole list. */
    Comparator<Job> comparator() {
        Comparator<Job> byId = Comparator.comparingLong(Job::id);
        return switch (this) {
            case QUEUE -> null;
            case ID -> byId;
            case STATE -> by(Job::displayState).thenComparing(byId);
            case PRI -> Comparator.comparingInt((Job j) -> -j.priority()).thenComparing(byId);
            case NAME -> by(Job::name).thenComparing(byId);
            case NODE -> by((Job j) -> j.node() != null ? j.node() : j.nodeConstraint() != null ? j.nodeConstraint() : "~")
                    .thenComparing(byId);
            case VRAM -> Comparator.comparingLong((Job j) -> -j.vramMb()).thenComparing(byId);
            case USED -> Comparator.comparingLong((Job j) -> j.gpuMemMb() == null ? 1 : -j.gpuMemMb().longValue())
                    .thenComparing(byId);
            // Oldest first: the job that has waited (or run) longest leads.
            case TIME -> Comparator.comparing(Job::createdAt, Comparator.nullsLast(Comparator.naturalOrder()))
                    .thenComparing(byId);
        };
    }

    private static <T extends Comparable<T>> Comparator<Job> by(Function<Job, T> key) {
        return Comparator.comparing(key);
    }
}
