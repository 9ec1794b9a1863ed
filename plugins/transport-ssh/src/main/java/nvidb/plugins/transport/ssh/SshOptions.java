package nvidb.plugins.transport.ssh;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import nvidb.spi.transport.NodeAddress;

/**
 * What a server entry says about reaching its node, read once when the transport opens. Holds the
 * password, so it never prints it: {@link #toString()} leaves it out.
 */
final class SshOptions {

    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(8);

    /** How to log in to the node itself (jump hosts always use keys). */
    enum Auth { AUTO, KEY, PASSWORD }

    /** What to do with a host key that known_hosts does not vouch for. */
    enum HostKeyCheck {
        /** Refuse an unknown host (the default) and a changed key. */
        STRICT,
        /** Record an unknown host's key in known_hosts; still refuse a changed key. */
        ACCEPT_NEW,
        /** Check nothing. */
        OFF
    }

    final String node;
    final String hostname;
    /** The port the entry names, or null to take ssh_config's Port, else 22. */
    final Integer explicitPort;
    /** The user the entry names, or null to take ssh_config's User, else the local user. */
    final String explicitUser;
    final Auth auth;
    private final String password;
    /** The entry's identity files as written ({@code ~} not yet expanded); empty: not set. */
    final List<String> identityFiles;
    /** The entry's ProxyJump as written; null: not set (ssh_config's applies). */
    final String proxyJump;
    final HostKeyCheck hostKeyCheck;
    final Path home;
    final Path knownHosts;
    final Path sshConfig;
    final Duration connectTimeout;

    private SshOptions(NodeAddress a) {
        Map<String, Object> o = a.options();
        node = a.name();
        hostname = a.hostname();
        if (hostname == null || hostname.isBlank()) {
            throw new IllegalArgumentException("ssh node " + node + " has no hostname");
        }
        // Core fills in port 22 when the entry names none; only a port the entry wrote (or any
        // other port a caller passes) overrides ~/.ssh/config's Port, as `ssh -p` does.
        explicitPort = o.containsKey("port") || (a.port() > 0 && a.port() != 22) ? Integer.valueOf(a.port()) : null;
        if (explicitPort != null && (explicitPort < 1 || explicitPort > 65535)) {
            throw new IllegalArgumentException("ssh node " + node + ": port must be 1-65535, not " + explicitPort);
        }
        explicitUser = a.username() == null || a.username().isBlank() ? null : a.username();
        auth = auth(o.get("auth"));
        password = text(o.get("password"));
        if (auth == Auth.PASSWORD && (password == null || password.isEmpty())) {
            throw new IllegalArgumentException("ssh node " + node
                    + ": auth is password but the entry has no password (nvidb never prompts)");
        }
        List<String> ids = new ArrayList<>();
        ids.addAll(strings(o.get("identityfile")));
        ids.addAll(strings(o.get("identity_file")));
        ids.addAll(strings(o.get("identity_files")));
        identityFiles = List.copyOf(ids);
        Object jump = o.containsKey("proxyjump") ? o.get("proxyjump") : o.get("proxy_jump");
        proxyJump = jump == null ? null : String.join(",", strings(jump));
        hostKeyCheck = hostKeyCheck(o.get("host_key_check"));
        String homeOption = text(o.get("home"));
        home = Path.of(homeOption != null && !homeOption.isBlank() ? homeOption : System.getProperty("user.home"))
                .toAbsolutePath();
        knownHosts = pathOption(o.get("known_hosts"), ".ssh/known_hosts");
        sshConfig = pathOption(o.get("ssh_config"), ".ssh/config");
        connectTimeout = connectTimeout(o.get("connect_timeout"));
    }

    static SshOptions of(NodeAddress address) {
        return new SshOptions(address);
    }

    /** The configured password, or null. Never put it in a message. */
    String password() {
        return password;
    }

    boolean hasPassword() {
        return password != null && !password.isEmpty();
    }

    /** Expands a leading {@code ~} to {@link #home}. */
    Path expand(String path) {
        if (path.equals("~")) {
            return home;
        }
        if (path.startsWith("~/")) {
            return home.resolve(path.substring(2));
        }
        return Path.of(path);
    }

    private Path pathOption(Object value, String underHome) {
        String s = text(value);
        return s == null || s.isBlank() ? home.resolve(underHome) : expand(s.trim());
    }

    private Auth auth(Object value) {
        String s = text(value);
        if (s == null || s.isBlank()) {
            return Auth.AUTO;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> Auth.AUTO;
            case "key", "publickey" -> Auth.KEY;
            case "password" -> Auth.PASSWORD;
            default -> throw new IllegalArgumentException("ssh node " + node
                    + ": auth must be auto, key or password, not '" + s + "'");
        };
    }

    private HostKeyCheck hostKeyCheck(Object value) {
        if (value instanceof Boolean b) {
            // YAML reads an unquoted `off`/`no` as false and `yes`/`on` as true.
            return b ? HostKeyCheck.STRICT : HostKeyCheck.OFF;
        }
        String s = text(value);
        if (s == null || s.isBlank()) {
            return HostKeyCheck.STRICT;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "strict", "yes", "true" -> HostKeyCheck.STRICT;
            case "accept-new", "accept_new" -> HostKeyCheck.ACCEPT_NEW;
            case "off", "no", "false" -> HostKeyCheck.OFF;
            default -> throw new IllegalArgumentException("ssh node " + node
                    + ": host_key_check must be strict, accept-new or off, not '" + s + "'");
        };
    }

    private Duration connectTimeout(Object value) {
        String s = text(value);
        if (s == null || s.isBlank()) {
            return DEFAULT_CONNECT_TIMEOUT;
        }
        try {
            BigDecimal seconds = new BigDecimal(s.trim());
            if (seconds.signum() > 0) {
                return Duration.ofMillis(Math.max(1, seconds.movePointRight(3).longValue()));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new IllegalArgumentException("ssh node " + node
                + ": connect_timeout must be a positive number of seconds, not '" + s + "'");
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (value instanceof Collection<?> c) {
            for (Object v : c) {
                if (v != null && !String.valueOf(v).isBlank()) {
                    out.add(String.valueOf(v).trim());
                }
            }
        } else if (!String.valueOf(value).isBlank()) {
            out.add(String.valueOf(value).trim());
        }
        return out;
    }

    @Override
    public String toString() {
        return "SshOptions[node=" + node + ", hostname=" + hostname + ", port=" + explicitPort
                + ", user=" + explicitUser + ", auth=" + auth + ", password=" + (hasPassword() ? "(set)" : "(none)")
                + ", identityFiles=" + identityFiles + ", proxyJump=" + proxyJump + ", hostKeyCheck=" + hostKeyCheck
                + ", knownHosts=" + knownHosts + ", sshConfig=" + sshConfig + ", connectTimeout=" + connectTimeout + "]";
    }
}
