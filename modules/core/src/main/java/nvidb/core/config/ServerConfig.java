package nvidb.core.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code servers:} entry: a node.
 *
 * @param gpuIds    the allowlist for new placements and lanes; null means every GPU
 * @param transport the transport plugin's name ({@code ssh}, {@code local})
 * @param probe     the probe plugin's name, or null to choose by the node ({@code nvidia-smi}, {@code wsl})
 * @param options   every key of the entry as written (empty values left out), handed to the transport plugin
 */
public record ServerConfig(String name, String hostname, int port, String username, List<Integer> gpuIds,
                           String transport, String probe, String nvidiaSmi, String jobRoot,
                           Map<String, Object> options) {
    public ServerConfig {
        Objects.requireNonNull(name, "name");
        options = options == null ? Map.of() : Map.copyOf(options);
        gpuIds = gpuIds == null ? null : List.copyOf(gpuIds);
    }
}
