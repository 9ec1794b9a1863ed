package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.Test;

/**
 * A queue host that cannot be used is an error (69) naming the host and what to fix, never a
 * fall-back to this machine's queue: nothing is created here. And the keeper prelude never
 * changes a command's answer.
 */
class ForwardingFailureTest extends QueueHostTest {
    @Test
    void anUnreachableHostIs69AndNothingLocal() {
        q.sshd.stop();
        Cli.Result r = q.client.run("job", "submit", "--gpus", "0", "--", "true");
        assertEquals(69, r.exit(), r.toString());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("error: could not reach or log in to the queue host 127.0.0.1: "), r.err());
        assertTrue(r.err().contains("Connection refused"), "ssh's own reason: " + r.err());
        assertTrue(r.err().contains("check that ssh -p " + q.sshd.port() + " " + q.sshd.user() + "@127.0.0.1 works"),
                r.err());
        assertTrue(r.err().contains(q.client.nvidbHome().resolve("queue.yml") + ", line 2"), "names the remote: block");

        Cli.Result json = q.client.run("job", "ls", "--json");
        assertEquals(69, json.exit());
        assertEquals("unavailable", json.json().path("code").asText(), json.toString());
        // The folder for the shared connection's socket (ConnectionSharing) is made before ssh
        // runs; it stays empty when ssh never got in.
        try (var files = Files.list(q.client.nvidbHome()); var sockets = Files.list(q.client.nvidbHome().resolve("ssh"))) {
            assertEquals(List.of("queue.yml", "ssh"), files.map(f -> f.getFileName().toString()).sorted().toList(),
                    "only the client's queue.yml and the socket folder: no queue.db, nothing else");
            assertEquals(0, sockets.count(), "no control socket without a connection");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRefusedLoginIs69() throws Exception {
        Path stranger = SshdFixture.keygen(tmp.resolve("stranger"));
        q.remote(q.hostNvidb.toString(), "off", "IdentityFile=" + stranger);
        // ssh uses the first IdentityFile given as well; only the stranger's key may be offered.
        String yml = Files.readString(q.client.nvidbHome().resolve("queue.yml"))
                .replace("    - \"IdentityFile=" + q.sshd.userKey() + "\"\n", "");
        q.client.write(".nvidb/queue.yml", yml);
        Cli.Result r = q.client.run("queue", "status");
        assertEquals(69, r.exit(), r.toString());
        assertTrue(r.err().contains("Permission denied"), r.err());
        assertFalse(Files.exists(q.client.database()));
    }

    @Test
    void noNvidbOnTheHostIs69() throws Exception {
        q.remote(tmp.resolve("host/bin/no-such-nvidb").toString(), "off");
        Cli.Result r = q.client.run("job", "ls");
        assertEquals(69, r.exit(), r.toString());
        assertTrue(r.err().startsWith("error: nvidb was not found on the queue host 127.0.0.1 at "
                + tmp.resolve("host/bin/no-such-nvidb")), r.err());
        assertTrue(r.err().contains("set its absolute path there as nvidb: in "), r.err());
        assertFalse(Files.exists(q.client.database()));
    }

    @Test
    void anNvidbTooOldToForwardToIs69AndDoesNothing() throws Exception {
        // What an nvidb from before forwarding answers: it refuses the option before doing anything.
        Path old = QueueHostFixture.script(tmp.resolve("host/bin/old-nvidb"), "echo \"error: Unknown option: '$1'"
                + " (see nvidb --help)\" >&2\nexit 64\n");
        q.remote(old.toString(), "off");
        Cli.Result r = q.client.run("job", "submit", "--gpus", "0", "--", "true");
        assertEquals(69, r.exit(), r.toString());
        assertEquals("error: the nvidb on the queue host 127.0.0.1 (" + old + ") is older than this one and cannot"
                + " take forwarded commands (it said: error: Unknown option: '--forward-protocol=1' (see nvidb --help)):"
                + " install the same nvidb version there as here (nvidb --version)\n", r.err());
        assertFalse(Files.exists(q.host.database()));
        assertFalse(Files.exists(q.client.database()));
    }

    @Test
    void aDroppedConnectionIs69() throws Exception {
        long id = q.host.json("job", "submit", "--gpus", "0", "--", "sleep 60").path("job").path("id").asLong();
        Process waiting = q.startClient("job", "wait", String.valueOf(id));
        QueueHostFixture.awaitForwarded(waiting);
        q.sshd.stop(); // the host goes down mid-command
        Cli.Result r = Cli.finish(waiting, 60);
        assertEquals(69, r.exit(), r.toString());
        assertTrue(r.err().contains("error: the connection to the queue host 127.0.0.1 broke while the command ran"
                + " there: it may have finished there or may still be running"), r.err());
        assertFalse(Files.exists(q.client.database()));
        q.host.json("job", "cancel", String.valueOf(id));
    }

    @Test
    void keeperEnsureWarnsOnceAndChangesNothingElse() throws Exception {
        q.host.json("job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        Cli.Result quiet = q.client.run("job", "show", "1", "--no-tick", "--json");
        q.remote(q.hostNvidb.toString(), "ensure");
        Cli.Result ensured = q.client.run("job", "show", "1", "--no-tick", "--json");
        assertEquals(quiet.exit(), ensured.exit(), ensured.toString());
        assertEquals(quiet.out(), ensured.out(), "stdout is the command's alone");
        // No keeper is installed on the host: queue keeper ensure fails there, said once, on stderr.
        String warning = "warning: the queue keeper on 127.0.0.1 could not be started";
        assertEquals(1, ensured.err().lines().filter(l -> l.startsWith(warning)).count(), ensured.err());
        assertEquals(ensured.err().lines().count(), 1L, ensured.err());
    }

    @Test
    void keeperEnsureStartsTheHostsStoppedKeeperInTheSameRoundTrip() throws Exception {
        Cli.Result installed = q.host.run("queue", "keeper", "install", "--nvidb", q.hostNvidb.toString(),
                "--interval", "5", "--json");
        assertEquals(0, installed.exit(), installed.toString());
        try {
            assertEquals(1, q.host.run("queue", "keeper", "status").exit(), "installed, not started");
            q.remote(q.hostNvidb.toString(), "ensure");
            Cli.Result r = q.client.run("job", "ls", "--no-tick", "--json");
            assertEquals(0, r.exit(), r.toString());
            assertEquals("", r.err(), "a keeper that could be started is not worth a word");
            Cli.Result status = q.host.run("queue", "keeper", "status", "--json");
            assertEquals(0, status.exit(), "the forwarded command started it: " + status);
            assertTrue(status.json().path("keeper").path("up").asBoolean(), status.toString());
        } finally {
            q.host.run("queue", "keeper", "stop");
            q.host.run("queue", "keeper", "uninstall");
        }
    }

    @Test
    void aHostAskedForAnotherProtocolSaysSo() throws Exception {
        Process p = q.host.start("--forward-protocol=9", "job", "ls");
        p.getOutputStream().close();
        Cli.Result r = Cli.finish(p, 60);
        assertEquals(69, r.exit(), r.toString());
        assertEquals("", r.out(), "no handshake: the client reports it");
        assertTrue(r.err().contains("this nvidb takes forwarding protocol 1, and the client asked for 9"), r.err());
    }
}
