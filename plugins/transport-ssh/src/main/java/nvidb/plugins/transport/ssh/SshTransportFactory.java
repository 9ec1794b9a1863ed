package nvidb.plugins.transport.ssh;

import java.util.Objects;
import nvidb.spi.config.ConfigSection;
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
     * Checks, when configuration loads, what a server entry must get right before any command
     * runs: a hostname, and {@code auth} and {@code host_key_check} spelled as the configuration
     * reference spells them ({@link #open} also takes the older spellings a caller may hand it).
     * It also declares the keys it reads only on connecting: core refuses every key no one knows.
     */
    @Override
    public void validate(ConfigSection server) {
        // Read only when a connection opens (SshOptions); declared so that a misspelling of one is refused.
        server.know("password", "identityfile", "identity_file", "identity_files", "proxyjump", "proxy_jump",
                "known_hosts", "ssh_config", "connect_timeout", "home");
        String host = server.string(server.contains("hostname") ? "hostname" : "host", null);
        if (host == null || host.isBlank()) {
            throw server.source().error(server.key("hostname"),
                    "is missing: an ssh server needs a hostname (or transport: local)");
        }
        String auth = server.oneOf("auth", "auto", "auto", "key", "password");
        if (auth.equals("password") && server.string("password", null) == null) {
            throw server.error("auth", "is password but the entry has no password:");
        }
        // YAML reads an unquoted `off` as the boolean false: that is the setting off.
        boolean unquotedOff = server.value("host_key_check").map(v -> Boolean.FALSE.equals(v.value())).orElse(false);
        if (!unquotedOff) {
            server.oneOf("host_key_check", "strict", "strict", "accept-new", "off");
        }
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
