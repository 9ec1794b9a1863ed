package nvidb.plugins.transport.ssh;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parts of an OpenSSH client configuration file ({@code ~/.ssh/config}) that decide where a
 * connection goes: {@code Host} blocks (patterns with {@code *}, {@code ?} and {@code !}),
 * {@code HostName}, {@code User}, {@code Port}, {@code IdentityFile} and {@code ProxyJump}, plus
 * {@code Include}. As in OpenSSH the first value found for a keyword wins, and every matching
 * {@code IdentityFile} counts. {@code Match} blocks are not evaluated: their settings are skipped
 * (a {@code Match} the user relies on would need OpenSSH's criteria, commands included), and every
 * other keyword is ignored. (MINA's own parser rejects a whole file that has a {@code Match}.)
 */
final class SshConfig {

    private static final int MAX_INCLUDE_DEPTH = 16;

    /** What the file says about one host name. Port 0 and null strings: not set. */
    record Resolved(String hostName, int port, String user, List<String> identityFiles, String proxyJump) {
        static final Resolved NONE = new Resolved(null, 0, null, List.of(), null);
    }

    /** A Host block (patterns) or the settings before the first one (patterns = null: every host). */
    private record Block(List<String> patterns, boolean match, List<String[]> settings) {
    }

    private final List<Block> blocks;

    private SshConfig(List<Block> blocks) {
        this.blocks = blocks;
    }

    static SshConfig empty() {
        return new SshConfig(List.of());
    }

    /** Reads the file; a missing file is an empty configuration. */
    static SshConfig load(Path file, Path home) throws IOException {
        List<Block> blocks = new ArrayList<>();
        if (Files.isRegularFile(file)) {
            blocks.add(new Block(null, false, new ArrayList<>()));
            parse(file, home, blocks, 0);
        }
        return new SshConfig(blocks);
    }

    Resolved resolve(String host) {
        String hostName = null;
        int port = 0;
        String user = null;
        String proxyJump = null;
        List<String> ids = new ArrayList<>();
        for (Block b : blocks) {
            if (b.match() || (b.patterns() != null && !matches(host, b.patterns()))) {
                continue;
            }
            for (String[] kv : b.settings()) {
                String value = kv[1];
                switch (kv[0]) {
                    case "hostname" -> hostName = hostName == null ? value.replace("%h", host) : hostName;
                    case "user" -> user = user == null ? value : user;
                    case "port" -> {
                        if (port == 0) {
                            try {
                                port = Integer.parseInt(value);
                            } catch (NumberFormatException e) {
                                throw new IllegalArgumentException("Port " + value + " is not a number");
                            }
                        }
                    }
                    case "proxyjump" -> proxyJump = proxyJump == null ? value : proxyJump;
                    case "identityfile" -> {
                        if (!value.equalsIgnoreCase("none")) {
                            ids.add(value);
                        }
                    }
                    default -> {
                        // not a setting that decides where to connect
                    }
                }
            }
        }
        return new Resolved(hostName, port, user, List.copyOf(ids), proxyJump);
    }

    private static void parse(Path file, Path home, List<Block> blocks, int depth) throws IOException {
        if (depth > MAX_INCLUDE_DEPTH) {
            throw new IOException("Include nested more than " + MAX_INCLUDE_DEPTH + " deep at " + file);
        }
        int lineNumber = 0;
        for (String raw : Files.readAllLines(file)) {
            lineNumber++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> words = words(line);
            if (words.isEmpty()) {
                continue;
            }
            String keyword = words.getFirst().toLowerCase(Locale.ROOT);
            List<String> args = words.subList(1, words.size());
            if (args.isEmpty()) {
                throw new IOException(file + " line " + lineNumber + ": " + words.getFirst() + " has no value");
            }
            switch (keyword) {
                case "host" -> blocks.add(new Block(List.copyOf(args), false, new ArrayList<>()));
                case "match" -> blocks.add(new Block(List.of(), true, new ArrayList<>()));
                case "include" -> {
                    for (String pattern : args) {
                        for (Path included : include(pattern, home)) {
                            parse(included, home, blocks, depth + 1);
                        }
                    }
                }
                case "identityfile" -> args.forEach(a -> blocks.getLast().settings().add(new String[] {keyword, a}));
                default -> blocks.getLast().settings().add(new String[] {keyword, String.join(" ", args)});
            }
        }
    }

    /** An Include argument: {@code ~} or relative to {@code ~/.ssh}, with globs in the file name. */
    private static List<Path> include(String pattern, Path home) throws IOException {
        Path path = pattern.startsWith("~/") ? home.resolve(pattern.substring(2))
                : Path.of(pattern).isAbsolute() ? Path.of(pattern) : home.resolve(".ssh").resolve(pattern);
        Path dir = path.getParent();
        String name = path.getFileName().toString();
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        if (!name.contains("*") && !name.contains("?") && !name.contains("[")) {
            return Files.isRegularFile(path) ? List.of(path) : List.of();
        }
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> matches = Files.newDirectoryStream(dir, name)) {
            for (Path p : matches) {
                if (Files.isRegularFile(p)) {
                    out.add(p);
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** Splits {@code Keyword value...} or {@code Keyword = value}, honouring double quotes. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n && !Character.isWhitespace(line.charAt(i)) && line.charAt(i) != '=') {
            i++;
        }
        out.add(line.substring(0, i));
        while (i < n && Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        if (i < n && line.charAt(i) == '=') {
            i++;
        }
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean inWord = false;
        for (; i < n; i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                inWord = true;
            } else if (!quoted && Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inWord = false;
                }
            } else if (!quoted && c == '#' && !inWord) {
                break;
            } else {
                cur.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(cur.toString());
        }
        return out;
    }

    /** OpenSSH's rule: some pattern matches and no negated one does. */
    static boolean matches(String host, List<String> patterns) {
        String h = host.toLowerCase(Locale.ROOT);
        boolean matched = false;
        for (String p : patterns) {
            for (String single : p.split(",")) {
                if (single.isEmpty()) {
                    continue;
                }
                boolean negated = single.startsWith("!");
                String glob = (negated ? single.substring(1) : single).toLowerCase(Locale.ROOT);
                if (glob(h, 0, glob, 0)) {
                    if (negated) {
                        return false;
                    }
                    matched = true;
                }
            }
        }
        return matched;
    }

    private static boolean glob(String s, int si, String p, int pi) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == '*') {
                for (int k = si; k <= s.length(); k++) {
                    if (glob(s, k, p, pi + 1)) {
                        return true;
                    }
                }
                return false;
            }
            if (si >= s.length() || (c != '?' && c != s.charAt(si))) {
                return false;
            }
            si++;
            pi++;
        }
        return si == s.length();
    }
}
