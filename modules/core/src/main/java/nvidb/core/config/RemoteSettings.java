package nvidb.core.config;

import java.util.List;

/**
 * The {@code remote:} block: the queue lives on another host. Forwarding commands there over SSH
 * is not built yet; until it is, a configured remote makes every queue command refuse (exit 69)
 * unless {@code --local} asks for this machine's own queue.
 *
 * @param origin where the block was written, as errors name it ({@code /home/a/.nvidb/queue.yml, line 8})
 */
public record RemoteSettings(String host, Integer port, String username, String nvidb, String nvidbHome,
                             boolean keeperEnsure, List<String> sshOptions, String origin) {
}
