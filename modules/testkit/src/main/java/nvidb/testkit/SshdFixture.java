package nvidb.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH server ({@code /usr/sbin/sshd}) on a loopback port, for tests of the SSH
 * transport against the daemon nodes actually run.
 *
 * <p>Everything lives in a temporary folder: an ed25519 host key, an ed25519 user key pair whose
 * public half is the only authorized key, an {@code sshd_config} and the daemon's log (it runs
 * with {@code -D -e}, so the log is what it prints). No root is needed: run as an ordinary user,
 * sshd skips privilege separation and lets only that same user log in; run as root (as in CI
 * containers), any user with the key may, and this fixture logs in as the current user either way.
 * Password authentication is off: OpenSSH checks passwords against the system's, which a test
 * cannot set up without root.
 *
 * <pre>{@code
 * try (SshdFixture sshd = SshdFixture.launch()) {
 *     Files.writeString(knownHosts, sshd.hostKeyLine() + "\n");
 *     ... connect to 127.0.0.1:sshd.port() as sshd.user() with sshd.userKey() ...
 *     assertEquals(1, sshd.acceptedLogins());
 *     sshd.stop();  sshd.start();            // the node goes away and comes back, same port
 *     sshd.stop();  sshd.newHostKey();  sshd.start();   // ... reinstalled: its host key changed
 * }
 * }</pre>
 *
 * <p>{@link #stop()} kills the listener and every per-connection process below it, so open
 * connections break as when a machine goes down. {@link BlackHole} is the other kind of bad
 * node: it accepts TCP connections and never says a word.
 */
public final class SshdFixture implements AutoCloseable {

    /** The daemon OpenSSH installs; {@code SSHD} in the environment overrides it. */
    public static final String DEFAULT_SSHD = "/usr/sbin/sshd";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private final Path dir;
    private final Path sshd;
    private final int port;
    private final List<String> extraConfig;
    private final Path hostKey;
    private final Path userKey;
    private final Path config;
    private final Path log;
    private Process process;
    private int starts;

    private SshdFixture(Path dir, Path sshd, int port, List<String> extraConfig) throws IOException {
        this.dir = dir;
        this.sshd = sshd;
        this.port = port;
        this.extraConfig = List.copyOf(extraConfig);
        this.hostKey = dir.resolve("ssh_host_ed25519_key");
        this.userKey = dir.resolve("id_ed25519");
        this.config = dir.resolve("sshd_config");
        this.log = dir.resolve("sshd.log");
        keygen(hostKey);
        keygen(userKey);
        Files.copy(Path.of(userKey + ".pub"), dir.resolve("authorized_keys"));
        writeConfig();
    }

    /** What a test that needs the fixture skips with where it is not {@link #available()}. */
    public static final String MISSING = HostTools.missing("sshd", "openssh-server");

    /** Whether this machine can run the fixture: sshd and ssh-keygen are installed. */
    public static boolean available() {
        return Files.isExecutable(sshdBinary()) && HostCommands.findOnPath("ssh-keygen") != null;
    }

    /**
     * Generates keys and config in a new temporary folder and starts sshd on a free loopback port.
     *
     * @param extraConfig more {@code sshd_config} lines (for example {@code "LogLevel DEBUG3"});
     *                    they come before the fixture's own, and sshd keeps the first value of a
     *                    keyword, so they win
     */
    public static SshdFixture launch(String... extraConfig) {
        Path binary = sshdBinary();
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(binary + " is not installed: install openssh-server "
                    + "(apt-get install openssh-server) to run the SSH tests");
        }
        try {
            Path dir = Files.createTempDirectory("nvidb-sshd-");
            SshdFixture fixture = new SshdFixture(dir, binary, freePort(), List.of(extraConfig));
            try {
                fixture.start();
            } catch (RuntimeException e) {
                fixture.close();
                throw e;
            }
            return fixture;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The loopback port sshd listens on; the same across {@link #stop()} and {@link #start()}. */
    public int port() {
        return port;
    }

    /** Always {@code 127.0.0.1}. */
    public String host() {
        return "127.0.0.1";
    }

    /** The user to log in as: whoever runs the tests. */
    public String user() {
        return System.getProperty("user.name");
    }

    /** The private half of the one authorized user key (OpenSSH format, no passphrase). */
    public Path userKey() {
        return userKey;
    }

    /** The folder holding keys, config and log; deleted by {@link #close()}. */
    public Path dir() {
        return dir;
    }

    /** A {@code known_hosts} line for the current host key: {@code [127.0.0.1]:PORT ssh-ed25519 AAAA…}. */
    public String hostKeyLine() {
        String[] pub = HostCommands.read(Path.of(hostKey + ".pub")).trim().split("\\s+");
        return "[" + host() + "]:" + port + " " + pub[0] + " " + pub[1];
    }

    /** The current host key's fingerprint as OpenSSH prints it: {@code SHA256:…}. */
    public String hostKeyFingerprint() {
        String out = HostCommands.exec(List.of(HostCommands.tool("ssh-keygen"), "-l", "-E", "sha256", "-f", hostKey + ".pub"));
        for (String word : out.trim().split("\\s+")) {
            if (word.startsWith("SHA256:")) {
                return word;
            }
        }
        throw new IllegalStateException("ssh-keygen printed no SHA256 fingerprint: " + out);
    }

    /** Everything sshd has printed since this fixture was created (all starts). */
    public String log() {
        return Files.exists(log) ? HostCommands.read(log) : "";
    }

    /** How many logins sshd has accepted (its {@code Accepted publickey} lines). */
    public long acceptedLogins() {
        return log().lines().filter(l -> l.contains("Accepted publickey")).count();
    }

    /**
     * Replaces the host key with a freshly generated one, taking effect at the next
     * {@link #start()}: the node was reinstalled, or someone stands in its place.
     */
    public void newHostKey() {
        try {
            Files.deleteIfExists(hostKey);
            Files.deleteIfExists(Path.of(hostKey + ".pub"));
            keygen(hostKey);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts sshd (again) on the same port and waits until the port accepts connections. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        String startMarker;
        try {
            if (isRoot()) {
                // As root, sshd wants its privilege separation folder; a container may lack it.
                Path privsep = Path.of("/run/sshd");
                if (!Files.isDirectory(privsep)) {
                    Files.createDirectories(privsep);
                }
            }
            startMarker = "--- start " + (++starts) + " ---\n";
            Files.writeString(log, startMarker, StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            // -E (append the log to a file) rather than -e (log to stderr): with -e, what a session
            // process logs before it runs the command would land in that command's stderr.
            process = new ProcessBuilder(sshd.toString(), "-D", "-E", log.toString(), "-f", config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("sshd exited with " + process.exitValue() + " at start:\n" + log());
            }
            // sshd logs this line once its listening socket is bound; probing the port with a TCP
            // connection instead would leave an aborted connection in its log.
            String text = log();
            if (text.substring(text.lastIndexOf(startMarker)).contains("Server listening on " + host() + " port " + port)) {
                return;
            }
            HostCommands.sleep(20);
        }
        stop();
        throw new IllegalStateException("sshd did not listen on port " + port + " within " + START_TIMEOUT
                + ":\n" + log());
    }

    /**
     * Kills sshd and every process below it (one per open connection, and their shells), and
     * waits for them, so connections break as when the node goes down.
     */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        // The per-connection processes first, while the listener lives to reap them (once it is
        // gone they are re-parented, and a container's init may be slow to reap), then the listener.
        List<ProcessHandle> below = process.descendants().toList();
        below.forEach(ProcessHandle::destroyForcibly);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (below.stream().anyMatch(SshdFixture::running) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Alive and not a zombie (a zombie holds no sockets; it only waits to be reaped). */
    private static boolean running(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            int end = stat.lastIndexOf(')');
            return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'Z';
        } catch (IOException gone) {
            return false;
        }
    }

    /** Whether sshd is running. */
    public synchronized boolean running() {
        return process != null && process.isAlive();
    }

    /** Stops sshd and deletes the folder. */
    @Override
    public void close() {
        stop();
        HostCommands.deleteTree(dir);
    }

    /**
     * Generates an ed25519 key pair without passphrase: {@code file} and {@code file.pub}. For a
     * key the server does not know, or a user's own key in a test home.
     */
    public static Path keygen(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HostCommands.exec(List.of(HostCommands.tool("ssh-keygen"), "-q", "-t", "ed25519", "-N", "", "-C", "nvidb-test", "-f", file.toString()));
        return file;
    }

    /** Hashes the host names of a known_hosts file in place ({@code ssh-keygen -H -f FILE}). */
    public static void hashKnownHosts(Path knownHosts) {
        HostCommands.exec(List.of(HostCommands.tool("ssh-keygen"), "-H", "-f", knownHosts.toString()));
        try {
            Files.deleteIfExists(Path.of(knownHosts + ".old"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeConfig() throws IOException {
        List<String> lines = new ArrayList<>(extraConfig);
        lines.addAll(List.of(
                "Port " + port,
                "ListenAddress " + host(),
                "HostKey " + hostKey,
                "PidFile " + dir.resolve("sshd.pid"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "StrictModes no",
                "UsePAM no",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password",
                "AllowTcpForwarding yes",
                "PrintMotd no",
                "PrintLastLog no",
                "UseDNS no",
                // DEBUG1 so that forwarded connections (a ProxyJump through this node) show in the log.
                "LogLevel DEBUG1",
                // Lets a test log in many times in parallel without sshd dropping "excess" starts.
                "MaxStartups 100",
                "MaxSessions 100",
                // The test user is this machine's account, whose ~/.bashrc is the image's, not a
                // node's under test: bash reads it for every ssh command unless it is a nested
                // shell (SHLVL). Root's on our CI images runs `pyenv init`, whose rehash lock made
                // sessions started at once wait on each other and print "pyenv: cannot rehash"
                // into the answers tests compare, and a shell killed during it (tests restart and
                // SIGSTOP sshd) left the lock behind, so that every later session waited 60 s.
                "SetEnv SHLVL=1"));
        Files.write(config, lines, StandardCharsets.UTF_8);
    }

    private static Path sshdBinary() {
        String override = System.getenv("SSHD");
        return Path.of(override == null || override.isBlank() ? DEFAULT_SSHD : override);
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        }
    }
}
