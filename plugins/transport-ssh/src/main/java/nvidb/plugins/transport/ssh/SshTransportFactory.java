package nvidb.plugins.transport.ssh;

import java.util.Objects;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportFactory;

/**
 * {@code transport: ssh} (the default): the node is reached over SSH. Opening reads and checks the
 * server entry's options but connects nothing; the first script connects.
 *
 * <p>Options read from the server entry (all optional):
 * <ul>
 *   <li>{@code auth}: {@code auto} (keys, then the password if one is configured), {@code key},
 *       {@code password}. Nothing ever prompts.</li>
 *   <li>{@code password}: for {@code auth: password} or {@code auto}.</li>
 *   <li>{@code identityfile} (a path or a list), {@code identity_files}: private keys; else the
 *       {@code IdentityFile}s of {@code ~/.ssh/config}; else {@code ~/.ssh/id_ed25519},
 *       {@code id_ecdsa}, {@code id_rsa}, those that exist. Keys with a passphrase cannot be used.</li>
 *   <li>{@code proxyjump}: {@code [user@]host[:port]} hops, comma separated (or a list);
 *       {@code none} ignores a ProxyJump of {@code ~/.ssh/config}.</li>
 *   <li>{@code host_key_check}: {@code strict} (default), {@code accept-new}, {@code off}.</li>
 *   <li>{@code known_hosts}: default {@code ~/.ssh/known_hosts}; {@code ssh_config}: default
 *       {@code ~/.ssh/config}; {@code connect_timeout}: seconds, default 8; {@code home}: the home
 *       folder {@code ~} stands for (default: the {@code user.home} property).</li>
 * </ul>
 */
public final class SshTransportFactory implements TransportFactory {

    @Override
    public String name() {
        return "ssh";
    }

    /**
     * @throws IllegalArgumentException an option has a value this transport does not understand
     */
    @Override
    public Transport open(NodeAddress address) {
        Objects.requireNonNull(address, "address");
        return new SshTransport(SshOptions.of(address));
    }
}
