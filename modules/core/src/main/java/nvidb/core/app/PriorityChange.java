package nvidb.core.app;

import nvidb.core.api.NvidbException;

/**
 * What {@code job priority ID [VALUE] [--up N | --down N]} asks, checked once for every front end:
 * read (nothing given), set or adjust ({@code value}: {@code 5}, {@code +1}, {@code -2}), or move a
 * pending job {@code slots} places in dispatch order (positive: earlier).
 */
public record PriorityChange(String value, Integer slots) {
    public static PriorityChange of(String value, Integer up, Integer down) {
        if ((up != null || down != null) && value != null) {
            throw NvidbException.usage("pass either a VALUE or --up/--down, not both");
        }
        if (up != null && down != null) {
            throw NvidbException.usage("pass only one of --up and --down");
        }
        if ((up != null && up <= 0) || (down != null && down <= 0)) {
            throw NvidbException.usage("--up and --down take a positive number of slots");
        }
        return new PriorityChange(value, up != null ? up : down != null ? -down : null);
    }

    /** Whether it moves the job in dispatch order rather than reading or setting its number. */
    public boolean moves() {
        return slots != null;
    }
}
