package nvidb.core.api;

import java.time.Instant;

/**
 * The queue daemon registered for a database: the process that makes its scheduler passes.
 *
 * @param host       the machine it runs on
 * @param pid        its process id there
 * @param startedAt  when it registered
 * @param lastPassAt when its last pass finished, or null before its first
 */
public record DaemonInfo(String host, long pid, Instant startedAt, Instant lastPassAt) {
    /** How a message names it: {@code pid 4242 on box406}. */
    public String describe() {
        return "pid " + pid + " on " + host;
    }
}
