package nvidb.plugins.transport.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import nvidb.spi.PluginKind;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;
import nvidb.spi.transport.TransportFactory;
import nvidb.testkit.BlackHole;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ssh transport against a real OpenSSH sshd on loopback (testkit's {@link SshdFixture}). */
class SshTransportTest {

    static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    static SshdFixture sshd;

    @TempDir
    Path home;

    private final List<Transport> opened = new ArrayList<>();
    private final List<Long> leftRunning = new ArrayList<>();

    @BeforeAll
    static void startSshd() {
        sshd = SshdFixture.launch();
    }

    @AfterAll
    static void stopSshd() {
        if (sshd != null) {
            sshd.close();
        }
    }

    @BeforeEach
    void trustTheFixture() throws Exception {
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(knownHosts(), sshd.hostKeyLine() + "\n");
    }

    @AfterEach
    void closeAll() {
        opened.forEach(Transport::close);
        for (long pid : leftRunning) {
            ProcessHandle.of(pid).ifPresent(p -> {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            });
        }
    }

    Path knownHosts() {
        return home.resolve(".ssh/known_hosts");
    }

    /** A node entry for {@code fixture}: its port, user and key, with this test's home. */
    Map<String, Object> options(SshdFixture fixture, Object... more) {
        Map<String, Object> o = new HashMap<>();
        o.put("home", home.toString());
        o.put("port", fixture.port());
        o.put("identityfile", fixture.userKey().toString());
        for (int i = 0; i < more.length; i += 2) {
            if (more[i + 1] == null) {
                o.remove((String) more[i]);
            } else {
                o.put((String) more[i], more[i + 1]);
            }
        }
        return o;
    }

    Transport open(SshdFixture fixture, Object... more) {
        return open(new NodeAddress("gpu1", "127.0.0.1", fixture.port(), fixture.user(), options(fixture, more)));
    }

    Transport open(NodeAddress address) {
        Transport t = new SshTransportFactory().open(address);
        opened.add(t);
        return t;
    }

    @Test
    void isFoundByServiceLoaderAsSsh() {
        List<TransportFactory> all = ServiceLoader.load(TransportFactory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        TransportFactory ssh = all.stream().filter(f -> f.name().equals("ssh")).findFirst().orElseThrow();
        assertEquals(PluginKind.TRANSPORT, ssh.kind());
        assertTrue(ssh instanceof SshTransportFactory);
    }

    @Test
    void stdoutStderrAndExitStatusComeBackOverOneConnection() throws Exception {
        long loginsBefore = sshd.acceptedLogins();
        Transport t = open(sshd);

        ExecResult r = t.run("echo out\necho 'it broke' >&2\nexit 3\n", TEN_SECONDS, false);
        assertEquals(3, r.exitCode());
        assertEquals("out\n", r.stdout());
        assertEquals("it broke\n", r.stderr());

        assertEquals(new ExecResult(0, "", ""), t.run("true", TEN_SECONDS, true));
        ExecResult whoami = t.run("id -un; pwd -P", TEN_SECONDS, true);
        assertEquals(sshd.user() + "\n" + Path.of(System.getProperty("user.home")).toRealPath() + "\n",
                whoami.stdout(), "runs as the user, in the home folder, like `ssh host sh -s`");

        assertEquals(1, sshd.acceptedLogins() - loginsBefore, "three round trips, one login:\n" + sshd.log());
    }

    @Test
    void hostileScriptAndOutputRoundTripByteExactly() throws Exception {
        Path marker = home.resolve("pwned");
        String hostile = "it's \"quoted\" $(touch " + marker + ") `touch " + marker + "` $HOME \\n ; | & > <\n"
                + "\ttabs\r\ncarriage return, trailing spaces   \n"
                + "ünïcödé ✓ 日本語 \u0001\u007f\n"
                + "NVIDB_END not at line start\n";
        String script = "cat <<'NVIDB_END'\n" + hostile + "NVIDB_END\nprintf '%s' \"$1\" >&2\n";
        ExecResult r = open(sshd).run(script, TEN_SECONDS, true);
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(hostile, r.stdout());
        assertFalse(Files.exists(marker), "nothing in the text may have run");

        // Output that is not line-shaped, without a final newline, on both streams.
        ExecResult bytes = open(sshd).run("printf 'a\\0b\\nno newline'; printf 'e\\001' >&2", TEN_SECONDS, true);
        assertEquals("a\0b\nno newline", bytes.stdout());
        assertEquals("e\u0001", bytes.stderr());
    }

    @Test
    void largeScriptsAndOutputsPassTheChannelWindows() throws Exception {
        StringBuilder script = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            script.append(": filler line ").append(i).append(" to make the script far larger than a window\n");
        }
        script.append("i=0\nwhile [ $i -lt 20000 ]; do\n"
                + "  echo \"out line $i padded to make it long enough..........................\"\n"
                + "  echo \"err line $i padded to make it long enough..........................\" >&2\n"
                + "  i=$((i+1))\ndone\n");
        ExecResult r = open(sshd).run(script.toString(), Duration.ofSeconds(30), true);
        assertEquals(0, r.exitCode());
        assertEquals(20_000, r.stdout().lines().count());
        assertEquals(20_000, r.stderr().lines().count());
        assertTrue(r.stdout().endsWith("out line 19999 padded to make it long enough..........................\n"));
    }

    @Test
    void earlyExitWithUnreadScriptStillAnswers() throws Exception {
        StringBuilder script = new StringBuilder("echo bye\nexit 7\n");
        for (int i = 0; i < 50_000; i++) {
            script.append("echo never ").append(i).append('\n');
        }
        ExecResult r = open(sshd).run(script.toString(), TEN_SECONDS, true);
        assertEquals(7, r.exitCode());
        assertEquals("bye\n", r.stdout());
    }

    @Test
    void scriptThatOutlivesTheTimeoutFailsPromptlyAndTheNextRunWorks() throws Exception {
        Transport t = open(sshd);
        t.run("true", TEN_SECONDS, true); // connected: what follows times the script alone
        long start = System.nanoTime();
        Path pidFile = home.resolve("sh.pid");
        TransportException e = assertThrows(TransportException.class,
                () -> t.run("echo $$ > '" + pidFile + "'\nsleep 30\n", Duration.ofSeconds(1), true));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
        assertTrue(e.getMessage().contains("did not answer within 1s"), e.getMessage());
        assertTrue(e.getMessage().contains("gpu1"), e.getMessage());
        // sshd kills the script only where it supports signals (not for a root login): tidy up.
        leftRunning.add(Long.parseLong(Files.readString(pidFile).trim()));

        assertEquals("still here\n", t.run("echo still here", TEN_SECONDS, true).stdout());
    }

    @Test
    void detachedJobWithRedirectedDescriptorsDoesNotHoldTheAnswer() throws Exception {
        String script = "setsid sh -c 'sleep 5' </dev/null >/dev/null 2>&1 &\necho $!\necho started\n";
        Transport t = open(sshd);
        t.run("true", TEN_SECONDS, true); // connected: what follows times the script alone
        long start = System.nanoTime();
        ExecResult r = t.run(script, TEN_SECONDS, true);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        long pid = Long.parseLong(r.stdout().lines().findFirst().orElseThrow().trim());
        leftRunning.add(pid);
        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
        assertTrue(r.stdout().endsWith("started\n"), r.stdout());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the job outlives the script");
    }

    @Test
    void backgroundChildHoldingStdoutGetsAGraceNotTheWholeWait() throws Exception {
        String script = "sleep 5 &\necho $!\necho done\necho 'also on stderr' >&2\n";
        Transport t = open(sshd);
        t.run("true", TEN_SECONDS, true);
        long start = System.nanoTime();
        ExecResult r = t.run(script, TEN_SECONDS, true);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        leftRunning.add(Long.parseLong(r.stdout().lines().findFirst().orElseThrow().trim()));
        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
        assertTrue(r.stdout().endsWith("done\n"), r.stdout());
        assertEquals("also on stderr\n", r.stderr());
    }

    @Test
    void aNodeThatAcceptsButNeverAnswersTimesOutAtConnectTimeout() {
        try (BlackHole hole = BlackHole.open()) {
            Transport t = open(new NodeAddress("silent", "127.0.0.1", hole.port(), "nobody",
                    Map.of("home", home.toString(), "port", hole.port(), "connect_timeout", 2)));
            long start = System.nanoTime();
            TransportException e = assertThrows(TransportException.class,
                    () -> t.run("true", Duration.ofSeconds(30), true));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Duration.ofMillis(1900)) > 0 && took.compareTo(Duration.ofSeconds(3)) < 0,
                    "took " + took);
            assertTrue(e.getMessage().contains("silent") && e.getMessage().contains("2s (connect_timeout)"),
                    e.getMessage());
            assertEquals(1, hole.accepted(), "a failed connect is not retried");
        }
    }

    @Test
    void aClosedPortIsReportedAtOnce() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Transport t = open(new NodeAddress("down", "127.0.0.1", port, "nobody", Map.of("home", home.toString(), "port", port)));
        TransportException e = assertThrows(TransportException.class, () -> t.run("true", TEN_SECONDS, true));
        assertTrue(e.getMessage().startsWith("node down: cannot connect to 127.0.0.1:" + port), e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains("refused"), e.getMessage());
    }

    @Test
    void unknownHostIsRefusedWithItsFingerprintAndTheWayToAcceptIt() throws Exception {
        Files.delete(knownHosts());
        long logins = sshd.acceptedLogins();
        Transport t = open(sshd);
        TransportException e = assertThrows(TransportException.class, () -> t.run("true", TEN_SECONDS, true));
        String m = e.getMessage();
        assertTrue(m.contains("[127.0.0.1]:" + sshd.port()), m);
        assertTrue(m.contains("ssh-ed25519"), m);
        assertTrue(m.contains(sshd.hostKeyFingerprint()), m + " should name " + sshd.hostKeyFingerprint());
        assertTrue(m.contains("ssh-keyscan -p " + sshd.port() + " 127.0.0.1 >> " + knownHosts()), m);
        assertTrue(m.contains("host_key_check: accept-new"), m);
        assertFalse(Files.exists(knownHosts()), "strict writes nothing");
        assertEquals(logins, sshd.acceptedLogins(), "the connection stopped before authentication");
    }

    @Test
    void acceptNewRecordsTheKeyOwnerOnlyAndStrictTrustsItAfterwards() throws Exception {
        Files.delete(knownHosts());
        Files.delete(home.resolve(".ssh"));
        assertEquals("ok\n", open(sshd, "host_key_check", "accept-new").run("echo ok", TEN_SECONDS, true).stdout());

        String written = Files.readString(knownHosts());
        assertEquals(sshd.hostKeyLine() + "\n", written);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(knownHosts())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(".ssh"))));

        assertEquals("ok\n", open(sshd).run("echo ok", TEN_SECONDS, true).stdout());
        // Accepting again does not duplicate the line.
        open(sshd, "host_key_check", "accept-new").run("true", TEN_SECONDS, true);
        assertEquals(written, Files.readString(knownHosts()));
    }

    @Test
    void hashedKnownHostsEntriesAreHonoured() throws Exception {
        Files.writeString(knownHosts(),
                "[127.0.0.1]:1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKxs8Iu1GkeTZ4PvMtWwsY5zQbZ1DRo/bLrEKqNXz9zl\n"
                + sshd.hostKeyLine() + "\n");
        SshdFixture.hashKnownHosts(knownHosts());
        String hashed = Files.readString(knownHosts());
        assertFalse(hashed.contains("127.0.0.1"), hashed);
        assertTrue(hashed.contains("|1|"), hashed);
        // Lines OpenSSH would skip are skipped, not fatal.
        Files.writeString(knownHosts(), "# a comment\ngarbage line that is no entry\n" + hashed);
        assertEquals("ok\n", open(sshd).run("echo ok", TEN_SECONDS, true).stdout());
    }

    @Test
    void offChecksNothing() throws Exception {
        Files.writeString(knownHosts(), "[127.0.0.1]:" + sshd.port()
                + " ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKxs8Iu1GkeTZ4PvMtWwsY5zQbZ1DRo/bLrEKqNXz9zl\n");
        assertThrows(TransportException.class, () -> open(sshd).run("true", TEN_SECONDS, true));
        assertEquals("ok\n", open(sshd, "host_key_check", false).run("echo ok", TEN_SECONDS, true).stdout());
    }

    @Test
    void aWrongKeyIsAClearAuthenticationFailure() throws Exception {
        Path stranger = SshdFixture.keygen(home.resolve("stranger"));
        Transport t = open(sshd, "identityfile", stranger.toString());
        TransportException e = assertThrows(TransportException.class, () -> t.run("true", TEN_SECONDS, true));
        assertTrue(e.getMessage().contains("authentication to " + sshd.user() + "@127.0.0.1:" + sshd.port()
                + " failed (tried: publickey)"), e.getMessage());

        Transport missing = open(sshd, "identityfile", List.of(home.resolve("nope").toString()));
        TransportException e2 = assertThrows(TransportException.class, () -> missing.run("true", TEN_SECONDS, true));
        assertTrue(e2.getMessage().contains("identity file " + home.resolve("nope") + " does not exist"), e2.getMessage());
    }

    @Test
    void aKeyWithAPassphraseIsReportedNeverPromptedFor() throws Exception {
        Path locked = home.resolve("locked");
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "sesame", "-f", locked.toString())
                .redirectErrorStream(true).start();
        assertEquals(0, p.waitFor());
        Transport t = open(sshd, "identityfile", locked.toString());
        TransportException e = assertThrows(TransportException.class, () -> t.run("true", TEN_SECONDS, true));
        assertTrue(e.getMessage().contains("failed (tried: publickey)"), e.getMessage());
        assertTrue(e.getMessage().contains("identity file " + locked + " cannot be used"), e.getMessage());
        assertTrue(e.getMessage().contains("never prompts"), e.getMessage());
    }

    @Test
    void defaultIdentitiesInHomeAreUsed() throws Exception {
        Files.copy(sshd.userKey(), home.resolve(".ssh/id_ed25519"));
        assertEquals("ok\n", open(sshd, "identityfile", null).run("echo ok", TEN_SECONDS, true).stdout());
    }

    @Test
    void anSshConfigAliasResolvesHostNamePortUserAndIdentityFile() throws Exception {
        Files.copy(sshd.userKey(), home.resolve(".ssh/nodekey"));
        Files.writeString(home.resolve(".ssh/config"), """
                # the node's real name is hidden behind an alias
                Host other
                    User nobody-at-all
                Host gpu-box gpu-box.lab
                    HostName 127.0.0.1
                    Port %d
                    User %s
                    IdentityFile ~/.ssh/nodekey
                Host *
                    User not-this-one
                    Port 1
                """.formatted(sshd.port(), sshd.user()));
        // Core's defaults for an entry that names only the host: port 22, no user, no key.
        Map<String, Object> o = new HashMap<>(Map.of("home", home.toString()));
        Transport t = open(new NodeAddress("gpu-box", "gpu-box", 22, null, o));
        assertEquals(sshd.user() + "\n", t.run("id -un", TEN_SECONDS, true).stdout());

        // What the server entry states explicitly wins over the file.
        o.put("port", 1);
        Transport explicit = open(new NodeAddress("gpu-box", "gpu-box", 1, null, o));
        TransportException e = assertThrows(TransportException.class, () -> explicit.run("true", TEN_SECONDS, true));
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    }

    @Test
    void proxyJumpGoesThroughTheJumpHost() throws Exception {
        try (SshdFixture target = SshdFixture.launch()) {
            Files.writeString(knownHosts(), sshd.hostKeyLine() + "\n" + target.hostKeyLine() + "\n");
            // Both fixtures authorize their own key; the jump host's comes from ssh_config.
            Files.writeString(home.resolve(".ssh/config"), """
                    Host jumpy
                        HostName 127.0.0.1
                        Port %d
                        User %s
                        IdentityFile %s
                    """.formatted(sshd.port(), sshd.user(), sshd.userKey()));
            long jumpLogins = sshd.acceptedLogins();
            Transport t = open(target, "proxyjump", "jumpy");
            ExecResult r = t.run("echo \"$SSH_CONNECTION\"", TEN_SECONDS, true);
            assertEquals(0, r.exitCode(), r.stderr());
            assertEquals(1, target.acceptedLogins());
            assertEquals(1, sshd.acceptedLogins() - jumpLogins, "one login on the jump host:\n" + sshd.log());
            assertTrue(sshd.log().contains("direct-tcpip") && sshd.log().contains("port " + target.port()),
                    "the jump host forwarded to the target:\n" + sshd.log());
            // The target saw the connection come from the jump host's side of loopback.
            assertTrue(r.stdout().startsWith("127.0.0.1 "), r.stdout());

            // The jump host's key is checked too.
            Files.writeString(knownHosts(), target.hostKeyLine() + "\n");
            Transport unknownJump = open(target, "proxyjump", "jumpy");
            TransportException e = assertThrows(TransportException.class,
                    () -> unknownJump.run("true", TEN_SECONDS, true));
            assertTrue(e.getMessage().contains("[127.0.0.1]:" + sshd.port() + " is not known"), e.getMessage());
        }
    }

    @Test
    void closingLeavesNoThreadThatKeepsTheJvmAlive() throws Exception {
        for (Transport t : opened) {
            t.close();
        }
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Transport t = open(sshd);
        t.run("true", TEN_SECONDS, true);
        assertTrue(SharedClient.running());
        t.close();
        assertFalse(SharedClient.running(), "the last close stops the shared client");

        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<String> left;
        do {
            left = Thread.getAllStackTraces().keySet().stream()
                    .filter(Thread::isAlive)
                    .filter(th -> !before.contains(th))
                    .filter(th -> !th.isDaemon() || th.getName().startsWith("sshd-"))
                    .map(th -> th.getName() + (th.isDaemon() ? " (daemon)" : ""))
                    .collect(Collectors.toList());
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        assertEquals(List.of(), left, "threads left after close");
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().startsWith("sshd-")).allMatch(Thread::isDaemon));
    }

    @Test
    void runAfterCloseIsRefusedAndBadArgumentsAreCaught() {
        Transport t = open(sshd);
        assertThrows(IllegalArgumentException.class, () -> t.run("true", Duration.ZERO, true));
        t.close();
        assertThrows(IllegalStateException.class, () -> t.run("true", TEN_SECONDS, true));
        assertThrows(IllegalArgumentException.class, () -> open(sshd, "host_key_check", "maybe"));
        assertThrows(IllegalArgumentException.class, () -> open(sshd, "connect_timeout", "soon"));
        assertThrows(IllegalArgumentException.class, () -> open(sshd, "auth", "password"));
    }
}
