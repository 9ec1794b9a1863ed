package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forwarded commands share one OpenSSH connection to the queue host (ControlMaster): the first
 * opens it, later ones log in no more (the real sshd's count of accepted logins), and a master
 * that died is replaced by the next command without a word. With {@code keeper: ensure}, a keeper
 * that runs costs a look at its pid file in the host's shell, and only a keeper that is down
 * starts a JVM there for {@code queue keeper ensure}.
 */
class ConnectionSharingTest {
    @TempDir
    Path tmp;
    QueueHostFixture fixture;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        fixture = new QueueHostFixture(tmp);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fixture != null) {
            fixture.host.run("queue", "keeper", "stop"); // a failing test must not leave a supervisor behind
            for (Path socket : sockets()) {
                ssh("-O", "exit", socket);
            }
            fixture.close();
        }
    }

    @Test
    void theSecondCommandUsesTheFirstOnesConnectionAndADeadOneIsReplaced() throws Exception {
        long first = submit();
        long logins = fixture.sshd.acceptedLogins();
        assertEquals(1, logins, fixture.sshd.log());
        List<Path> sockets = sockets();
        assertEquals(1, sockets.size(), "one connection for the one queue host: " + sockets);
        Path dir = sockets.getFirst().getParent();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)),
                "only its user may reach the socket");
        long master = masterPid(sockets.getFirst());

        long second = submit();
        assertEquals(first + 1, second);
        assertEquals(logins, fixture.sshd.acceptedLogins(), "no new login: a session on the open connection");
        assertEquals(master, masterPid(sockets.getFirst()));

        // The master dies (killed, the machine suspended): its socket stays, and nothing answers there.
        ProcessHandle dying = ProcessHandle.of(master).orElseThrow();
        dying.destroyForcibly();
        dying.onExit().get();
        assertTrue(Files.exists(sockets.getFirst()), "a stale socket is left behind");
        long third = submit();
        assertEquals(second + 1, third, "the command ran as if nothing had happened");
        assertEquals(logins + 1, fixture.sshd.acceptedLogins(), "one new login opened a new connection");
        assertNotEquals(master, masterPid(sockets.getFirst()), "a new master holds the socket");
        submit();
        assertEquals(logins + 1, fixture.sshd.acceptedLogins(), "and later commands share that one");
    }

    @Test
    void aKeeperThatRunsStartsNoJvmOnTheHostAndOneThatIsDownIsStarted() throws Exception {
        Path calls = tmp.resolve("host-calls");
        Path logged = QueueHostFixture.script(tmp.resolve("host/bin/logged-nvidb"),
                "echo \"$*\" >> " + Cli.q(calls.toString()) + "\nexec " + Cli.q(fixture.hostNvidb.toString())
                        + " \"$@\"\n");
        fixture.remote(logged.toString(), "ensure");
        Cli.Result installed = fixture.host.run("queue", "keeper", "install", "--start", "--nvidb",
                fixture.hostNvidb.toString(), "--interval", "5");
        assertEquals(0, installed.exit(), installed.toString());

        submit();
        assertEquals(List.of("--forward-protocol=1"), Files.readAllLines(calls),
                "the keeper runs: the host's shell saw it, no nvidb ran for ensure");

        assertEquals(0, fixture.host.run("queue", "keeper", "stop").exit());
        assertEquals(1, fixture.host.run("queue", "keeper", "status").exit(), "down");
        Files.delete(calls);
        submit();
        assertEquals(List.of("queue keeper ensure", "--forward-protocol=1"), Files.readAllLines(calls),
                "the keeper was down: ensure ran first");
        assertEquals(0, fixture.host.run("queue", "keeper", "status").exit(), "and started it again");
    }

    private long submit() {
        Cli.Result r = fixture.client.run("job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true");
        assertEquals(0, r.exit(), r.toString());
        return r.json().path("job").path("id").asLong();
    }

    /** The control sockets in the client's NVIDB_HOME. */
    private List<Path> sockets() throws IOException {
        Path dir = fixture.client.nvidbHome().resolve("ssh");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("cm-")).toList();
        }
    }

    /** The pid of the master holding {@code socket}, as {@code ssh -O check} reports it. */
    private long masterPid(Path socket) throws Exception {
        Cli.Result check = ssh("-O", "check", socket);
        Matcher m = Pattern.compile("pid=(\\d+)").matcher(check.err());
        assertTrue(m.find(), "no master answers on " + socket + ": " + check);
        return Long.parseLong(m.group(1));
    }

    private Cli.Result ssh(String option, String value, Path socket) throws Exception {
        List<String> argv = new ArrayList<>(List.of("ssh", option, value, "-o", "ControlPath=" + socket,
                "-p", String.valueOf(fixture.sshd.port()), fixture.sshd.host()));
        return Cli.finish(new ProcessBuilder(argv).start(), 10);
    }
}
