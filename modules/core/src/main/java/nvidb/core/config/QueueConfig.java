package nvidb.core.config;

import java.util.List;
import nvidb.core.api.RemoteSettings;

/** The effective configuration: {@code config.yml} with {@code queue.yml} laid over it. */
public record QueueConfig(QueueSettings settings, List<ServerConfig> servers, RemoteSettings remote) {
    public QueueConfig {
        servers = List.copyOf(servers);
    }

    public static QueueConfig defaults() {
        return new QueueConfig(QueueSettings.defaults(), List.of(), null);
    }
}
