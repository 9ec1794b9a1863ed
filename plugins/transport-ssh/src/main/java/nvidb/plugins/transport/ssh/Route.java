package nvidb.plugins.transport.ssh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import nvidb.spi.transport.TransportException;

/**
 * The way to a node: the jump hosts to go through, in order, then the node itself, each resolved
 * against {@code ~/.ssh/config} (what the server entry states explicitly wins over the file).
 */
record Route(List<Route.Hop> jumps, Route.Hop target) {

    /** At most this many jump hosts, jumps of jumps included (guards against ProxyJump loops). */
    static final int MAX_JUMPS = 10;

    static final List<String> DEFAULT_IDENTITIES = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    /**
     * One SSH connection of the route.
     *
     * @param alias            the name as written (server entry, ProxyJump), which ssh_config matched
     * @param host             where to connect (ssh_config's HostName, else the alias)
     * @param identities       private keys to offer, in order
     * @param identitiesNamed  whether someone named them (else they are the defaults that exist)
     */
    record Hop(String alias, String host, int port, String user, List<Path> identities, boolean identitiesNamed) {
        Hop {
            identities = List.copyOf(identities);
        }

        /** {@code host:port}, IPv6 in brackets. */
        String hostPort() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }

        /** {@code user@host:port}. */
        String label() {
            return user + "@" + hostPort();
        }
    }

    List<Hop> all() {
        List<Hop> all = new ArrayList<>(jumps);
        all.add(target);
        return all;
    }

    /** Resolves the route of a node; a broken ssh_config or ProxyJump is a TransportException. */
    static Route resolve(SshOptions o) throws TransportException {
        SshConfig config;
        try {
            config = SshConfig.load(o.sshConfig, o.home);
        } catch (IOException | RuntimeException e) {
            throw new TransportException("node " + o.node + ": cannot read " + o.sshConfig + ": " + e.getMessage(), e);
        }
        try {
            SshConfig.Resolved r = config.resolve(o.hostname);
            String host = r.hostName() != null ? r.hostName() : o.hostname;
            int port = o.explicitPort != null ? o.explicitPort : r.port() > 0 ? r.port() : 22;
            String user = o.explicitUser != null ? o.explicitUser : r.user() != null ? r.user() : localUser();
            List<String> named = !o.identityFiles.isEmpty() ? o.identityFiles : r.identityFiles();
            Hop target = new Hop(o.hostname, host, port, user,
                    named.isEmpty() ? defaults(o) : expandAll(o, named, host, port, user), !named.isEmpty());
            String jump = o.proxyJump != null ? o.proxyJump : r.proxyJump();
            return new Route(jumps(o, config, jump, target), target);
        } catch (IllegalArgumentException e) {
            throw new TransportException("node " + o.node + ": " + e.getMessage(), e);
        }
    }

    private static List<Hop> jumps(SshOptions o, SshConfig config, String proxyJump, Hop target) {
        List<Hop> hops = parseJumps(o, config, proxyJump, target);
        // A first hop's own ProxyJump (from ssh_config) applies too, as OpenSSH's `ssh -W` to it would.
        while (!hops.isEmpty()) {
            Hop first = hops.getFirst();
            String more = config.resolve(first.alias()).proxyJump();
            List<Hop> before = parseJumps(o, config, more, target);
            if (before.isEmpty()) {
                break;
            }
            List<Hop> all = new ArrayList<>(before);
            all.addAll(hops);
            hops = all;
            if (hops.size() > MAX_JUMPS) {
                throw new IllegalArgumentException("more than " + MAX_JUMPS
                        + " jump hosts: is there a ProxyJump loop in " + o.sshConfig + "?");
            }
        }
        return hops;
    }

    private static List<Hop> parseJumps(SshOptions o, SshConfig config, String proxyJump, Hop target) {
        if (proxyJump == null || proxyJump.isBlank() || proxyJump.trim().equalsIgnoreCase("none")) {
            return new ArrayList<>();
        }
        List<Hop> hops = new ArrayList<>();
        for (String raw : proxyJump.split(",", -1)) {
            String spec = raw.trim();
            if (spec.isEmpty() || spec.equalsIgnoreCase("none")) {
                throw new IllegalArgumentException("proxyjump '" + proxyJump + "' has an empty or 'none' hop");
            }
            hops.add(jumpHop(o, config, spec, target));
        }
        return hops;
    }

    /** {@code [user@]host[:port]}, {@code [user@][v6addr]:port} or {@code ssh://[user@]host[:port]}. */
    private static Hop jumpHop(SshOptions o, SshConfig config, String spec, Hop target) {
        String user = null;
        String host;
        int port = 0;
        if (spec.startsWith("ssh://")) {
            URI uri = URI.create(spec);
            user = uri.getUserInfo();
            host = uri.getHost();
            port = Math.max(uri.getPort(), 0);
            if (host == null) {
                throw new IllegalArgumentException("proxyjump hop '" + spec + "' has no host");
            }
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
        } else {
            String rest = spec;
            int at = rest.lastIndexOf('@');
            if (at >= 0) {
                user = rest.substring(0, at);
                rest = rest.substring(at + 1);
            }
            String portText = null;
            if (rest.startsWith("[")) {
                int close = rest.indexOf(']');
                if (close < 0) {
                    throw new IllegalArgumentException("proxyjump hop '" + spec + "' has an unclosed [");
                }
                host = rest.substring(1, close);
                String after = rest.substring(close + 1);
                if (after.startsWith(":")) {
                    portText = after.substring(1);
                } else if (!after.isEmpty()) {
                    throw new IllegalArgumentException("proxyjump hop '" + spec + "' is not [host]:port");
                }
            } else if (rest.indexOf(':') >= 0 && rest.indexOf(':') == rest.lastIndexOf(':')) {
                host = rest.substring(0, rest.indexOf(':'));
                portText = rest.substring(rest.indexOf(':') + 1);
            } else {
                host = rest; // a name, or a bare IPv6 address
            }
            if (portText != null) {
                try {
                    port = Integer.parseInt(portText);
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65535) {
                    throw new IllegalArgumentException("proxyjump hop '" + spec + "' has a bad port '" + portText + "'");
                }
            }
        }
        if (host.isBlank() || (user != null && user.isBlank())) {
            throw new IllegalArgumentException("proxyjump hop '" + spec + "' is not [user@]host[:port]");
        }
        SshConfig.Resolved r = config.resolve(host);
        String realHost = r.hostName() != null ? r.hostName() : host;
        int realPort = port > 0 ? port : r.port() > 0 ? r.port() : 22;
        String realUser = user != null ? user : r.user() != null ? r.user() : localUser();
        // A jump host's own IdentityFiles, else the keys the node itself is reached with.
        List<Path> ids = r.identityFiles().isEmpty() ? target.identities()
                : expandAll(o, r.identityFiles(), realHost, realPort, realUser);
        return new Hop(host, realHost, realPort, realUser, ids, !r.identityFiles().isEmpty() || target.identitiesNamed());
    }

    private static List<Path> defaults(SshOptions o) {
        List<Path> out = new ArrayList<>();
        for (String name : DEFAULT_IDENTITIES) {
            Path p = o.home.resolve(".ssh").resolve(name);
            if (Files.isRegularFile(p)) {
                out.add(p);
            }
        }
        return out;
    }

    private static List<Path> expandAll(SshOptions o, List<String> ids, String host, int port, String user) {
        List<Path> out = new ArrayList<>();
        for (String id : ids) {
            Path p = o.expand(tokens(id, o, host, port, user));
            if (!out.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** OpenSSH's tokens in IdentityFile: %d %u %l %h %r %p %%. */
    private static String tokens(String id, SshOptions o, String host, int port, String user) {
        if (id.indexOf('%') < 0) {
            return id;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c != '%' || i + 1 >= id.length()) {
                sb.append(c);
                continue;
            }
            char t = id.charAt(++i);
            switch (t) {
                case '%' -> sb.append('%');
                case 'd' -> sb.append(o.home);
                case 'u' -> sb.append(localUser());
                case 'l' -> sb.append(localHostName());
                case 'h' -> sb.append(host);
                case 'r' -> sb.append(user);
                case 'p' -> sb.append(port);
                default -> throw new IllegalArgumentException("unknown token %" + t + " in IdentityFile " + id);
            }
        }
        return sb.toString();
    }

    static String localUser() {
        return System.getProperty("user.name");
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
        } catch (IOException e) {
            return "localhost";
        }
    }
}
