package nvidb.core.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code servers:} entry: a node.
 *
 * @param gpuIds    the allowlist for new placements and lanes; null means every GPU
 * @param kind      a workstation and its transport plugin ({@code ssh}, {@code local}), or a batch
 *                  partition with its batch scheduler plugin ({@code slurm}) and its login's transport
 * @param probe     the probe plugin's name, or null to choose by the node ({@code nvidia-smi}, {@code wsl})
 * @param options   every key of the entry as written (empty values left out), handed to the plugins
 */
public record ServerConfig(String name, String hostname, int port, String username, List<Integer> gpuIds,
                           NodeKind kind, String probe, String nvidiaSmi, String jobRoot,
                           Map<String, Object> options) {
    public ServerConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        options = options == null ? Map.of() : Map.copyOf(options);
        gpuIds = gpuIds == null ? null : List.copyOf(gpuIds);
    }

    /** The entry's {@code transport:} as written (see {@link NodeKind#plugin}). */
    public String transport() {
        return kind.plugin();
    }
}
