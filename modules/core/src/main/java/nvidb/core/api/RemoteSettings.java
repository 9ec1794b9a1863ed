package nvidb.core.api;

import java.util.List;

/**
 * The {@code remote:} block of a client machine's configuration: its queue lives on another host,
 * and every {@code job} and {@code queue} command is forwarded there over SSH.
 *
 * @param host         the ssh destination or {@code ~/.ssh/config} alias
 * @param port         {@code ssh -p}, or null for ssh's own choice
 * @param username     {@code ssh -l}, or null for ssh's own choice
 * @param nvidb        the nvidb program on the queue host
 * @param nvidbHome    {@code NVIDB_HOME} for the command on the queue host, or null for its default
 * @param keeperEnsure whether a forwarded command first makes sure the host's queue keeper runs
 * @param sshOptions   each becomes {@code ssh -o OPTION}
 * @param origin       where the block was written, as errors name it ({@code /home/a/.nvidb/queue.yml, line 8})
 */
public record RemoteSettings(String host, Integer port, String username, String nvidb, String nvidbHome,
                             boolean keeperEnsure, List<String> sshOptions, String origin) {
    public RemoteSettings {
        sshOptions = List.copyOf(sshOptions);
    }
}
