package nvidb.core.api;

/**
 * One line of {@code nvidb doctor}: what was checked, whether it is healthy, what was found, and
 * what to do about it.
 *
 * @param name   what was checked ({@code configuration}, {@code database}, {@code node gpu-1 clock})
 * @param ok     healthy
 * @param detail what was found
 * @param fix    what to do when it is not healthy; null when it is
 */
public record HealthCheck(String name, boolean ok, String detail, String fix) {
    public static HealthCheck pass(String name, String detail) {
        return new HealthCheck(name, true, detail, null);
    }

    public static HealthCheck fail(String name, String detail, String fix) {
        return new HealthCheck(name, false, detail, fix);
    }
}
