package nvidb.core.config;

import java.util.List;

/** The {@code remote:} block: forward every command to a queue host over SSH. */
public record RemoteSettings(String host, Integer port, String username, String nvidb, String nvidbHome,
                             boolean keeperEnsure, List<String> sshOptions) {
}
