package nvidb.spi.transport;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a node is and how to reach it. {@code options} carries the server entry's
 * transport-specific keys (identity files, password, proxy jump, host key policy) as read from
 * configuration, so a transport plugin can grow options without changing this record.
 */
public record NodeAddress(String name, String hostname, int port, String username, Map<String, Object> options) {
    public NodeAddress {
        Objects.requireNonNull(name, "name");
        options = options == null ? Map.of() : Map.copyOf(options);
    }

    public Optional<String> option(String key) {
        Object value = options.get(key);
        return value == null ? Optional.empty() : Optional.of(String.valueOf(value));
    }
}
