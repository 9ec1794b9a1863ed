package nvidb.core.api;

import java.util.Locale;

/**
 * One line of {@code nvidb doctor}: what was checked, how healthy it is, what was found, and what
 * to do about it.
 *
 * @param name   what was checked ({@code configuration}, {@code database}, {@code node gpu-1 clock})
 * @param level  healthy, a warning (the queue works, but something is advised), or a failure
 * @param detail what was found
 * @param fix    what to do when it is not healthy; null when it is
 */
public record HealthCheck(String name, Level level, String detail, String fix) {
    /** How a check came out; only {@link #FAIL} makes {@code nvidb doctor} exit 1. */
    public enum Level {
        OK, WARN, FAIL;

        /** The level as the JSON document spells it: {@code ok}, {@code warn}, {@code fail}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public HealthCheck {
        if (level != Level.OK && fix == null) {
            throw new IllegalArgumentException("a check that is not ok says what to do: " + name);
        }
    }

    /** Not a failure: passed, or passed with a warning. */
    public boolean ok() {
        return level != Level.FAIL;
    }

    public static HealthCheck pass(String name, String detail) {
        return new HealthCheck(name, Level.OK, detail, null);
    }

    /** The queue works, but something is advised: said with what to do, and no failure. */
    public static HealthCheck warn(String name, String detail, String fix) {
        return new HealthCheck(name, Level.WARN, detail, fix);
    }

    public static HealthCheck fail(String name, String detail, String fix) {
        return new HealthCheck(name, Level.FAIL, detail, fix);
    }
}
