package nvidb.plugins.transport.ssh;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * What one SSH connection of a route needs while MINA negotiates it: which host it really talks
 * to (a hop reached through a jump host shows up as a loopback address), the known_hosts file and
 * the policy. Travels as the connection's context attribute, so the JVM-wide client can delegate
 * to it; remembers why a host key was refused, for the exception that follows.
 */
final class HopContext {

    static final AttributeRepository.AttributeKey<HopContext> KEY = new AttributeRepository.AttributeKey<>();

    private final String node;
    private final Route.Hop hop;
    private final KnownHosts knownHosts;
    private final SshOptions.HostKeyCheck policy;
    private volatile String refusal;

    HopContext(String node, Route.Hop hop, KnownHosts knownHosts, SshOptions.HostKeyCheck policy) {
        this.node = node;
        this.hop = hop;
        this.knownHosts = knownHosts;
        this.policy = policy;
    }

    AttributeRepository asAttributes() {
        return AttributeRepository.ofKeyValuePair(KEY, this);
    }

    /** Why the host key was refused, or null. */
    String refusal() {
        return refusal;
    }

    /** The server key check; never throws (MINA would log it). */
    boolean verify(PublicKey presented) {
        if (policy == SshOptions.HostKeyCheck.OFF) {
            return true;
        }
        String pattern = KnownHosts.hostPattern(hop.host(), hop.port());
        try {
            List<KnownHosts.Entry> entries = knownHosts.entries(hop.host(), hop.port());
            switch (KnownHosts.judge(entries, presented)) {
                case KNOWN -> {
                    return true;
                }
                case UNKNOWN -> {
                    if (policy == SshOptions.HostKeyCheck.ACCEPT_NEW) {
                        knownHosts.append(hop.host(), hop.port(), presented);
                        return true;
                    }
                    refusal = "node " + node + ": the host key of " + pattern + " is not known: it presents "
                            + KnownHosts.describe(presented) + ". nvidb trusts no host key silently. After checking "
                            + "that fingerprint (on the host: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub), run `"
                            + keyscan() + "`, or set host_key_check: accept-new on this server";
                    return false;
                }
                case CHANGED -> {
                    List<String> held = new ArrayList<>();
                    for (KnownHosts.Entry e : entries) {
                        if (!e.revoked()) {
                            held.add(e.keyType() + " key " + (e.key() == null ? "(unreadable)" : KeyUtils.getFingerPrint(e.key()))
                                    + " (line " + e.line() + ")");
                        }
                    }
                    refusal = "node " + node + ": HOST KEY CHANGED for " + pattern + ": it now presents "
                            + KnownHosts.describe(presented) + ", but " + shown(knownHosts.file()) + " holds "
                            + String.join(", ", held) + ". Someone may be intercepting the connection, or the host "
                            + "was reinstalled. nvidb refuses it (even with host_key_check: accept-new); if the change "
                            + "is expected, remove the old key with `ssh-keygen -R '" + pattern + "' -f "
                            + shown(knownHosts.file()) + "` and connect again";
                    return false;
                }
                case REVOKED -> {
                    refusal = "node " + node + ": the host key of " + pattern + " (" + KnownHosts.describe(presented)
                            + ") is marked @revoked in " + shown(knownHosts.file()) + "; refused";
                    return false;
                }
                default -> throw new IllegalStateException();
            }
        } catch (IOException | RuntimeException e) {
            refusal = "node " + node + ": cannot check the host key of " + pattern + " against "
                    + shown(knownHosts.file()) + ": " + e.getMessage();
            return false;
        }
    }

    /**
     * Puts the host key algorithms whose key types known_hosts already holds for this host first,
     * as OpenSSH does, so that a host with several keys presents the one the file vouches for.
     */
    String orderHostKeyAlgorithms(String proposal) {
        if (policy == SshOptions.HostKeyCheck.OFF || proposal == null || proposal.isEmpty()) {
            return proposal;
        }
        Set<String> known = knownHosts.knownTypes(hop.host(), hop.port());
        if (known.isEmpty()) {
            return proposal;
        }
        List<String> first = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (String alg : proposal.split(",")) {
            boolean cert = alg.contains("-cert-");
            (!cert && known.contains(KeyUtils.getCanonicalKeyType(alg)) ? first : rest).add(alg);
        }
        first.addAll(rest);
        return String.join(",", first);
    }

    private String keyscan() {
        return "ssh-keyscan " + (hop.port() == 22 ? "" : "-p " + hop.port() + " ") + hop.host() + " >> "
                + shown(knownHosts.file());
    }

    /** A path as a user would type it: {@code ~/…} under the home folder. */
    static String shown(Path file) {
        String realHome = System.getProperty("user.home");
        Path abs = file.toAbsolutePath().normalize();
        if (realHome != null && !realHome.isBlank()) {
            Path home = Path.of(realHome).toAbsolutePath().normalize();
            if (abs.startsWith(home) && !abs.equals(home)) {
                return "~/" + home.relativize(abs);
            }
        }
        return abs.toString();
    }
}
